import { fstatSync } from "node:fs";
import { isatty } from "node:tty";

/**
 * What the process's stdin is, which decides whether text on it goes with a `-p <text>` run:
 * - `pipe`: a shell's pipe (`git diff | mcpterm -p …`) or a file (`< build.log`); it ends when the
 *   command writing it does, so it is read to its end;
 * - `socket`: how Node's `spawn` and `execFile` start mcpterm: often left open with nothing ever
 *   written, so only what has arrived and ended by the time the prompt is ready is taken, and
 *   nothing is waited for (a program of another language hands a pipe, waited for as a shell's);
 * - `none`: a terminal (the person types at the prompt), a device such as `/dev/null`, or no
 *   stdin at all.
 */
export type StdinSource = "pipe" | "socket" | "none";

export function stdinSource(fd = 0): StdinSource {
  if (isatty(fd)) return "none";
  try {
    const stat = fstatSync(fd);
    if (stat.isFIFO() || stat.isFile()) return "pipe";
    if (stat.isSocket()) return "socket";
    return "none";
  } catch {
    // A closed stdin (`<&-`) has nothing to read.
    return "none";
  }
}
