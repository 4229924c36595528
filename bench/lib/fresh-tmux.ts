import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { SCREEN } from "./tui.js";

const run = promisify(execFile);
/** How often the screen is read: each read is a tmux client process, as a person's script would spawn. */
const POLL_MS = 10;
const GIVE_UP_MS = 30_000;

/**
 * A frame measured the way the issue measured it: a fresh tmux server for each run, the screen
 * read by spawning `tmux capture-pane`, from before `tmux new-session` to the first capture that
 * `drawn` accepts. Slower and noisier than the control-mode harness (bench/lib/tmux.ts), and it
 * counts tmux's own start; it is here so the figure can be set beside the issue's own numbers.
 * The server is killed afterwards, which hangs up on the program in the pane.
 */
export async function freshTmuxFrame(
  shellLine: string,
  cwd: string,
  drawn: (screen: string) => boolean,
): Promise<number> {
  const socket = `mcpterm-bench-fresh-${randomUUID()}`;
  const tmux = (...args: string[]) => run("tmux", ["-L", socket, "-f", "/dev/null", ...args], { cwd });
  const startedAt = performance.now();
  try {
    await tmux(
      "new-session",
      "-d",
      "-x",
      String(SCREEN.width),
      "-y",
      String(SCREEN.height),
      "-c",
      cwd,
      shellLine,
    );
    for (;;) {
      const { stdout } = await tmux("capture-pane", "-p", "-J");
      if (drawn(stdout)) return performance.now() - startedAt;
      if (performance.now() - startedAt > GIVE_UP_MS)
        throw new Error(`nothing drawn in a fresh tmux within ${GIVE_UP_MS} ms: ${shellLine}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await tmux("kill-server").catch(() => undefined);
  }
}
