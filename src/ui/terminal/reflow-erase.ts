import type { WriteStream } from "node:tty";
import { stripVTControlCharacters } from "node:util";
import type { Instance } from "ink";
import { displayWidth } from "../../core/text/index.js";
// Imported by path: Ink's registry is not in its package exports (see inkFrameReader).
import inkInstances from "../../../node_modules/ink/build/instances.js";

/** What of Ink's instance this reads: the live frame it last drew (not public API, so checked). */
interface DrawnFrame {
  lastOutput?: unknown;
}

/**
 * Pure: rows beyond one per line that a frame takes once a reflowing terminal (tmux, iTerm2,
 * kitty, VTE, Windows Terminal) re-wraps it `columns` wide.
 */
export function extraRowsAfterReflow(frame: string, columns: number): number {
  const width = Math.max(1, columns);
  return frame
    .split("\n")
    .reduce(
      (extra, line) =>
        extra + Math.max(0, Math.ceil(displayWidth(stripVTControlCharacters(line)) / width) - 1),
      0,
    );
}

/**
 * Pure: whether the terminal re-wraps its lines when it narrows. Most do; xterm, rxvt, st, the
 * Linux console and GNU screen cut them instead, and erasing re-wrapped rows there would erase
 * the transcript above the frame. tmux (which reflows) may run inside any of them.
 */
export function terminalReflows(env: NodeJS.ProcessEnv): boolean {
  if (env.TMUX) return true;
  const term = env.TERM ?? "";
  if (env.XTERM_VERSION || env.STY) return false;
  return !/^(linux|rxvt|st-|st$)/.test(term);
}

/**
 * When the window narrows, the terminal re-wraps the live frame it shows into more rows, while
 * Ink erases as many rows as the frame had lines: the rows left over stay on screen as broken
 * boxes. This runs before Ink's own resize handler and erases the frame with its re-wrapped
 * rows, so Ink draws the new frame where the old one began. Returns the unsubscribe.
 */
export function eraseFrameOnNarrowing(
  env: NodeJS.ProcessEnv,
  stdout: WriteStream,
  instance: Pick<Instance, "clear">,
  ink: { readonly frame: () => string | undefined },
): () => void {
  if (!terminalReflows(env)) return () => undefined;
  let columns = stdout.columns;
  const onResize = (): void => {
    const narrower = stdout.columns < columns;
    columns = stdout.columns;
    const frame = narrower ? ink.frame() : undefined;
    if (frame === undefined) return;
    const extra = extraRowsAfterReflow(frame, columns);
    if (extra === 0) return;
    // Ink's clear erases one row per line, up to the frame's first line; the re-wrapped rest is above it.
    instance.clear();
    stdout.write("\u001b[1A\u001b[2K".repeat(extra));
  };
  stdout.prependListener("resize", onResize);
  return () => {
    stdout.off("resize", onResize);
  };
}

/**
 * The live frame Ink last drew on `stdout`, read from Ink's instance registry, keyed by stdout.
 * Ink has no public way to ask, and its package exports hide the file, so it is imported by path:
 * the bundler and Node then load the very module Ink uses. Anything unexpected reads as
 * "unknown", and Ink's own erase is left to do what it can.
 */
export function inkFrameReader(stdout: WriteStream): () => string | undefined {
  const registry: unknown = inkInstances;
  return () => {
    const frame =
      registry instanceof WeakMap ? (registry.get(stdout) as DrawnFrame | undefined)?.lastOutput : undefined;
    return typeof frame === "string" ? frame : undefined;
  };
}
