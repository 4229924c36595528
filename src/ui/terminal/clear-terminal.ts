import type { Instance } from "ink";
import type { ReactNode } from "react";

/** Erase the screen, erase the scrollback, cursor home: what `clear` prints. */
const CLEAR_SEQUENCE = "\u001b[2J\u001b[3J\u001b[H";

/**
 * /clear's screen half. Ink has no way to take back what <Static> printed, so we print the
 * terminal's clear sequence ourselves, once. `instance.clear()` comes first: it erases Ink's live
 * frame and makes Ink forget it, so Ink draws its next frame from the top of the cleared screen
 * instead of erasing lines that are no longer there. The transcript then starts a new epoch and
 * the App gives <Static> a new key, so only what comes after /clear is printed again.
 */
export function clearTerminal(instance: Pick<Instance, "clear">, stdout: NodeJS.WritableStream): void {
  instance.clear();
  stdout.write(CLEAR_SEQUENCE);
}

/**
 * Ctrl+L: the screen erased — not the scrollback, where the transcript stays — and the live area
 * drawn again from the top, as a shell's Ctrl+L does; for a screen another program scribbled on.
 */
export function redrawTerminal(
  instance: Pick<Instance, "clear" | "rerender">,
  stdout: NodeJS.WritableStream,
  tree: ReactNode,
): void {
  instance.clear();
  stdout.write("\u001b[2J\u001b[H");
  instance.rerender(tree);
}
