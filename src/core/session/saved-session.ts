import { z } from "zod";
import type { EndedTurn } from "../agent/session.js";
import type { ChatMessage } from "../llm/types.js";
import { SESSION_FORMAT, SESSION_FORMAT_VERSION, sessionHeader } from "./saved-session-header.js";

/**
 * The layout of a saved session: one JSON record a line, a header first, then one record per
 * ended turn, each written whole in one append, so a process killed mid-turn leaves the file
 * as it was after the turn before (or with one torn last line, which reading skips).
 *
 * - `session`: the header (format, version, id, when and where it started).
 * - `turn`: one ended turn as shown (input, attachments, answer, tools called) and the history
 *   it changed: `append` the messages it added, or `replace` the whole history when the session
 *   changed what it held (a compacted conversation is held shorter than it was saved).
 * - `snapshot`: the turns so far and the whole history, written when the file is rewritten to
 *   stay within its size.
 */
export { SESSION_FORMAT, SESSION_FORMAT_VERSION, sessionHeader };

/** A turn as the transcript shows it again on resume: an ended turn without the history it left. */
export type SavedTurn = Omit<EndedTurn, "history">;

/** A saved session, read back: its turns to show and the history to go on with. */
export interface SavedSession {
  id: string;
  file: string;
  createdAt: string;
  /** The working folder it was saved in. */
  cwd: string;
  /** The proof that this user's mcpterm started it in that folder (SessionMarks), if it has one. */
  mark?: string;
  turns: SavedTurn[];
  history: ChatMessage[];
  /** Records that could not be read and were left out: a torn last line after a kill. */
  skipped: number;
  /** Why its file was not written here by mcpterm (signsOfAnotherOrigin); unset when nothing says so. */
  foreign?: string[];
}

export type ParsedSession = { ok: true; session: Omit<SavedSession, "file"> } | { ok: false; reason: string };

const text = z.string();

const toolCallSchema = z.object({ id: text, name: text, arguments: text });

// z.object drops keys it does not name, so what comes back is plain data of the shapes the
// session sends, whatever else a file holds. No `system` message: mcpterm never saves one (a
// resumed session gets a fresh system prompt), so one in a file was planted to give orders.
const messageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("user"), content: text }),
  z.object({
    role: z.literal("assistant"),
    content: text.nullable(),
    toolCalls: z.array(toolCallSchema).optional(),
  }),
  z.object({ role: z.literal("tool"), toolCallId: text, content: text }),
]);

const attachmentSchema = z.object({
  kind: z.enum(["resource", "prompt", "file", "stdin"]),
  server: text,
  name: text,
  detail: text,
});

const turnFields = {
  turn: z.number().int().nonnegative(),
  at: text,
  model: text,
  input: text,
  attachments: z.array(attachmentSchema),
  answer: text,
  reason: z.enum(["completed", "max_steps", "loop_detected", "aborted", "error"]),
  tools: z.array(
    z.object({
      server: text,
      tool: text,
      outcome: z.enum(["done", "failed", "denied", "cancelled", "not_run"]).optional(),
    }),
  ),
};

const headerSchema = z.object({
  type: z.literal("session"),
  format: z.literal(SESSION_FORMAT),
  version: z.number(),
  id: text,
  createdAt: text,
  cwd: text,
  /** Whose it is: see SessionMarks; sessions saved before marks were made have none. */
  mark: text.optional(),
});

const recordSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("turn"),
    ...turnFields,
    append: z.array(messageSchema).optional(),
    replace: z.array(messageSchema).optional(),
  }),
  z.object({
    type: z.literal("snapshot"),
    turns: z.array(z.object(turnFields)),
    history: z.array(messageSchema),
  }),
]);

export type SessionHeader = z.infer<typeof headerSchema>;
export type SessionRecord = z.infer<typeof recordSchema>;

/**
 * Pure: a session file's text, read back. The header must come first and every record must have
 * its shape; a line that is not JSON at all is a torn write (a kill mid-append) and is skipped,
 * since each record holds a whole turn. The history must be one the model can be sent: every
 * tool call answered, every tool message answering one, so resuming never leaves a call to run.
 */
export function parseSession(content: string): ParsedSession {
  const lines = content.split("\n");
  const first = lines[0] ?? "";
  const header = headerSchema.safeParse(parseJson(first));
  if (!header.success) return { ok: false, reason: "its first line is not an mcpterm session header" };
  if (header.data.version !== SESSION_FORMAT_VERSION) {
    return {
      ok: false,
      reason: `it was saved in format version ${header.data.version}, and this mcpterm reads version ${SESSION_FORMAT_VERSION}`,
    };
  }
  let turns: SavedTurn[] = [];
  let history: ChatMessage[] = [];
  let skipped = 0;
  for (const [index, line] of lines.entries()) {
    if (index === 0 || line.trim() === "") continue;
    const json = parseJson(line);
    if (json === undefined) {
      skipped += 1;
      continue;
    }
    const record = recordSchema.safeParse(json);
    if (!record.success) {
      return { ok: false, reason: `line ${index + 1} is not a record of a saved session` };
    }
    const data = record.data;
    if (data.type === "snapshot") {
      turns = data.turns;
      history = data.history;
      continue;
    }
    const { type: _type, append, replace, ...turn } = data;
    turns.push(turn);
    if (replace) history = replace;
    // Added in place: copying the history for every record made reading quadratic in turns
    // (50,000 short turns took 40 s). The arrays are this parse's own, so nothing else sees it.
    for (const message of append ?? []) history.push(message);
  }
  const problem = unanswered(history);
  if (problem) return { ok: false, reason: problem };
  const { id, createdAt, cwd, mark } = header.data;
  return {
    ok: true,
    session: { id, createdAt, cwd, ...(mark === undefined ? {} : { mark }), turns, history, skipped },
  };
}

/** Why the history cannot be sent to a model as it is, if so: a tool call left open, a stray answer. */
function unanswered(history: readonly ChatMessage[]): string | undefined {
  let open = new Set<string>();
  for (const [index, message] of history.entries()) {
    if (message.role === "tool") {
      if (!open.delete(message.toolCallId))
        return `its history has a tool result (message ${index + 1}) that answers no call`;
      continue;
    }
    if (open.size > 0) return `its history leaves a tool call unanswered (before message ${index + 1})`;
    const ids = message.role === "assistant" ? (message.toolCalls ?? []).map((call) => call.id) : [];
    open = new Set(ids);
    // Two calls under one id: one answer would close both, and the model's API refuses that history.
    if (open.size !== ids.length) return `its history has two tool calls with one id (message ${index + 1})`;
  }
  return open.size > 0 ? "its history ends with a tool call that was never answered" : undefined;
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}
