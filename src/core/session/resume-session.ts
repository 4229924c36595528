import path from "node:path";
import { statusPhrase } from "../mcp/types.js";
import { BUILT_IN_SERVER, type AgentTool } from "../agent/tool-host.js";
import { UsageError } from "../errors.js";
import type { ServerSnapshot } from "../mcp/types.js";
import {
  isSessionId,
  listSessionFiles,
  readSessionFile,
  sessionsDir,
  type SessionFile,
} from "./saved-session-files.js";
import type { SessionMarks } from "./session-mark.js";
import { signsOfAnotherOrigin } from "./session-file-origin.js";
import type { SavedSession } from "./saved-session.js";
import { claimInUse, holdClaim, markerOf, takeClaim } from "./session-in-use.js";

/** `--continue` (the latest session of the folder) or `--resume <id>` (an id, or its unique start). */
export type ResumeRequest = { kind: "latest" } | { kind: "id"; id: string };

/**
 * The saved session to go on with, read and checked; a UsageError (exit 2) saying what to do
 * when there is none, the id names none, or the file is not a session mcpterm can go on with.
 * `--continue` goes on only with the newest session that carries this user's mark (SessionMarks):
 * a session file a project brought, however new it looks, is never picked for the person. One
 * named by its id may be any, and is told as not theirs when it has no mark.
 */
export async function findSavedSession(
  cwd: string,
  request: ResumeRequest,
  marks: SessionMarks,
): Promise<SavedSession> {
  const dir = sessionsDir(cwd);
  const shown = path.relative(cwd, dir) || dir;
  const files = await listSessionFiles(dir);
  if (request.kind === "latest") {
    if (files.length === 0)
      throw new UsageError(
        `There is no saved session in ${shown} to continue; start one with mcpterm (or mcpterm -p "…").`,
      );
    // Read once, to find it: marked for this folder by this user, so only other signs can count.
    const found = await newestMarked(files, marks, cwd);
    if (!found)
      throw new UsageError(
        `There is no session of yours to continue in ${shown}: ${files.length === 1 ? "the one there does not carry" : `none of the ${files.length} there carries`} the mark your mcpterm gives the sessions it starts here (an older mcpterm saved ${files.length === 1 ? "it" : "them"}, ${files.length === 1 ? "it was" : "they were"} started where this folder was before it moved, or ${files.length === 1 ? "it" : "they"} came with the project); resume one by its id (mcpterm --resume <id>) to see it, or start a new session.`,
      );
    return withOrigin(claimed(found, cwd), []);
  }
  if (!isSessionId(request.id))
    throw new UsageError(
      `"${request.id}" is not a session id (ids look like ${files[0]?.id ?? "20261201-170635-123-a1b2c3"}); run mcpterm --resume to pick one.`,
    );
  const matches = files.filter((entry) => entry.id === request.id || entry.id.startsWith(request.id));
  const chosen =
    matches.find((entry) => entry.id === request.id) ?? (matches.length === 1 ? matches[0] : undefined);
  if (!chosen) {
    const latest = files[0] ? `; the latest is ${files[0].id}` : "";
    throw new UsageError(
      matches.length > 1
        ? `"${request.id}" starts ${matches.length} saved sessions' ids in ${shown}; give more of it.`
        : `There is no saved session "${request.id}" in ${shown}${latest}.`,
    );
  }
  const read = await readSessionFile(chosen.file);
  if (!read.ok)
    throw new UsageError(
      `Cannot resume ${path.relative(cwd, chosen.file) || chosen.file}: ${read.reason}; start a new session, or move the file away.`,
    );
  return withOrigin(
    claimed(read.session, cwd),
    marks.holds(read.session)
      ? []
      : [
          "it carries no mark that your mcpterm started it in this folder (an older mcpterm, or the project, wrote it)",
        ],
  );
}

/** The session with why its file may not be the person's: `unmarked`, then signsOfAnotherOrigin. */
async function withOrigin(session: SavedSession, unmarked: readonly string[]): Promise<SavedSession> {
  const foreign = [...unmarked, ...(await signsOfAnotherOrigin(session.file))];
  return foreign.length > 0 ? { ...session, foreign } : session;
}

/**
 * The newest of `files` that this user's mcpterm started in `cwd` (SessionMarks), read: a marked
 * header copied into another folder's sessions names the folder it was made in, not this one.
 */
/**
 * The session, claimed as this process's (claimInUse) from the moment it is found, unless another
 * running mcpterm is writing it (a TUI left open, a `-p` run not done): both would append their
 * turns to one file, each unaware of the other's. Claimed here, not when the first turn is
 * saved, so two runs started at once cannot both go on with it while their servers start.
 */
function claimed(session: SavedSession, cwd: string): SavedSession {
  const claim = claimInUse(session.file);
  if (!("heldBy" in claim)) {
    holdClaim(session, claim.unmark);
    return session;
  }
  const marker = path.relative(cwd, markerOf(session.file)) || markerOf(session.file);
  throw new UsageError(
    `Session ${session.id} is still being written by another mcpterm (pid ${claim.heldBy}), and two would mix their turns in it; go on there, wait for it to end, or start a new session here (if pid ${claim.heldBy} is no mcpterm, delete ${marker}).`,
  );
}

/** Lets go of a found session that will not be continued after all (a TUI's pending resume, replaced). */
export function letGoOfFound(session: SavedSession): void {
  takeClaim(session)?.();
}

async function newestMarked(
  files: readonly SessionFile[],
  marks: SessionMarks,
  cwd: string,
): Promise<SavedSession | undefined> {
  for (const entry of files) {
    const read = await readSessionFile(entry.file);
    if (read.ok && path.resolve(read.session.cwd) === path.resolve(cwd) && marks.holds(read.session))
      return read.session;
  }
  return undefined;
}

/** One line of the session picker and of /resume's list. */
export interface SessionSummary {
  id: string;
  modified: Date;
  /** The first message's words, or why the file cannot be resumed. */
  first: string;
  turns: number;
  readable: boolean;
}

/** The newest `limit` sessions of the folder, summarized (unreadable ones say why). */
export async function sessionSummaries(cwd: string, limit = 20): Promise<SessionSummary[]> {
  const files = (await listSessionFiles(sessionsDir(cwd))).slice(0, limit);
  return Promise.all(
    files.map(async (entry) => {
      const read = await readSessionFile(entry.file);
      return read.ok
        ? {
            id: entry.id,
            modified: entry.modified,
            first: read.session.turns[0]?.input ?? "",
            turns: read.session.turns.length,
            readable: true,
          }
        : {
            id: entry.id,
            modified: entry.modified,
            first: `(cannot resume: ${read.reason})`,
            turns: 0,
            readable: false,
          };
    }),
  );
}

/** What the person is told when a session resumes: what it is, and what differs from when it was saved. */
export function resumeNotices(
  saved: SavedSession,
  /** `oneShot`: the person switches with the --model flag of the next run, not with /model. */
  now: { cwd: string; model: string | undefined; oneShot?: boolean },
): string[] {
  const last = saved.turns.at(-1);
  const notes = [
    `Resumed session ${saved.id} (${saved.turns.length} ${saved.turns.length === 1 ? "turn" : "turns"}, started ${saved.createdAt.slice(0, 16).replace("T", " ")} UTC).`,
  ];
  // mcpterm records the whole path: "." or "" would pass for any folder, this one included.
  if (!path.isAbsolute(saved.cwd))
    notes.push(
      `It names no folder it was saved in (${JSON.stringify(saved.cwd)}, where mcpterm writes the whole path); its file may have come with the project, and its earlier messages may not be yours.`,
    );
  else if (path.resolve(saved.cwd) !== path.resolve(now.cwd))
    notes.push(`It was saved in another folder (${saved.cwd}); its file may have come with the project.`);
  if (saved.foreign)
    notes.push(
      `Its file was not written here by mcpterm: ${saved.foreign.join(", and ")}; its earlier messages may not be yours.`,
    );
  // As the saver decides (notYours there): nothing more is written into such a file.
  if (notes.length > 1)
    notes.push("Your turns from here on are saved in a session file of your own, not in that one.");
  if (saved.skipped > 0)
    notes.push(
      `${saved.skipped === 1 ? "One record" : `${saved.skipped} records`} of it could not be read (a write cut short) and ${saved.skipped === 1 ? "was" : "were"} left out.`,
    );
  if (last && now.model !== undefined && last.model !== now.model)
    notes.push(
      `It last used the model ${last.model}; this session uses ${now.model} (${now.oneShot ? `--model ${last.model}` : `/model ${last.model}`} to switch).`,
    );
  return notes;
}

/**
 * Servers and tools the saved session called that are not here now, one sentence each: the
 * model may refer to them, and calling them would fail. Asked once the servers have settled.
 */
export function missingSince(
  saved: SavedSession,
  now: { servers: readonly ServerSnapshot[]; tools: readonly AgentTool[] },
): string[] {
  const used = new Map<string, Set<string>>();
  for (const turn of saved.turns)
    for (const { server, tool } of turn.tools) used.set(server, (used.get(server) ?? new Set()).add(tool));
  const notes: string[] = [];
  for (const [server, tools] of used) {
    const snapshot = now.servers.find((candidate) => candidate.name === server);
    const offered = now.tools.filter((tool) => tool.server === server).map((tool) => tool.name);
    // The built-in tools are not a server's: the knowledge base may still be loading.
    if (server === BUILT_IN_SERVER) continue;
    if (offered.length === 0 && snapshot?.status !== "connected") {
      const why = snapshot ? statusPhrase(snapshot.status) : "is not in the config now";
      notes.push(`Server "${server}", which this session used, ${why}; its tools cannot be called.`);
      continue;
    }
    const gone = [...tools].filter((tool) => !offered.includes(tool));
    if (gone.length > 0)
      notes.push(
        `Server "${server}" no longer offers ${gone.map((tool) => `"${tool}"`).join(", ")}, which this session used.`,
      );
  }
  return notes;
}
