import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";
import type { SessionSummary } from "../../core/session/resume-session.js";
import { localMinute, oneLine, padToWidth } from "../../core/text/index.js";
import { readLineFromTerminal, TYPED_AHEAD_NOTE, type CliIo } from "../../common/cli-io.js";
import { draftAside } from "../keys/typed-keys.js";

/** The picker was left unanswered (Ctrl+C, or Ctrl+D ending the input): nothing is started. */
export const NOTHING_PICKED = Symbol("nothing picked");

/**
 * `mcpterm --resume` with no id: the folder's newest sessions as a numbered list (when each was
 * saved, its turns, its first message), asked before the TUI draws, like the trust question.
 * Enter takes the newest; `n` (or a number that is not listed) starts a new session. Returns
 * the id chosen, undefined for a new session, or NOTHING_PICKED.
 */
export async function pickSessionAtTerminal(
  io: CliIo,
  sessions: readonly SessionSummary[],
  columns: number,
): Promise<string | undefined | typeof NOTHING_PICKED> {
  const pickable = sessions.filter((entry) => entry.readable);
  if (pickable.length === 0) {
    io.stderr.write("No saved session in this folder to resume; starting a new one.\n");
    return undefined;
  }
  const width = Math.max(20, columns - 32);
  const rows = pickable.map((entry, index) => {
    const turns = `${entry.turns} ${entry.turns === 1 ? "turn" : "turns"}`;
    // The first message came from a file a cloned project may have brought: cleaned, one line.
    const first = oneLine(sanitizeForTerminal(entry.first), width) || "(no message)";
    return `${padToWidth(String(index + 1), 3)} ${localMinute(entry.modified)}  ${padToWidth(turns, 9)} ${first}\n`;
  });
  io.stderr.write(`Saved sessions in this folder, newest first:\n${rows.join("")}`);
  io.stderr.write(`Resume which? [1-${pickable.length}, Enter for 1, n for a new session] `);
  const line = await readLineFromTerminal(io.stdin, io.signal, {
    onIgnored: () => io.stderr.write(TYPED_AHEAD_NOTE),
    // Keys typed into the early frame are the prompt's: its draft is there again after the pick.
    setAside: draftAside,
  });
  if (line === undefined) {
    // Whatever is written next (a shell's prompt) starts on a line of its own.
    io.stderr.write("\n");
    return NOTHING_PICKED;
  }
  const answer = line.trim();
  if (answer === "") return pickable[0]?.id;
  const chosen = /^\d+$/.test(answer) ? pickable[Number(answer) - 1] : undefined;
  if (!chosen) io.stderr.write("Starting a new session.\n");
  return chosen?.id;
}
