import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import type { EndedTurn, SessionJournal } from "../agent/session.js";
import { ensureProjectStateFolder } from "../config/project-state-folder.js";
import { errorMessage } from "../errors.js";
import { fileSafeJson } from "../policy/json-escapes.js";
import { fullyRedactedLine, redactedLine, type RecordRedaction } from "../policy/redacted-json.js";
import { newSessionId } from "../trace/session-id.js";
import { fitHistory, fitTurns, MAX_SAVED_SESSIONS, MAX_SESSION_BYTES } from "./saved-session-bounds.js";
import type { SavedSession, SavedTurn, SessionHeader } from "./saved-session.js";
import { sessionHeader } from "./saved-session-header.js";
import { forgetMarker, inUseElsewhere, markInUse, takeClaim } from "./session-in-use.js";

export interface SessionSaverOptions {
  /** `<cwd>/.mcpterm/sessions`. */
  dir: string;
  cwd: string;
  /** The trace's redaction: a saved session holds no more than the trace may. */
  redaction: RecordRedaction;
  maxBytes?: number;
  maxSessions?: number;
  now?: () => Date;
  /** Marks each new session as this user's (SessionMarks.mark); none: new sessions go unmarked. */
  mark?: (id: string, cwd: string) => string | undefined;
  /** The id a new session's file takes (the run's trace's, so the two are found by one id); else a new one. */
  id?: string;
}

interface OpenFile {
  header: SessionHeader;
  file: string;
  fd: number;
  bytes: number;
  /** Says the file is no longer open (see markInUse). */
  unmark: () => void;
}

/**
 * Saves a session as it goes: each ended turn is one redacted JSON line appended in one write,
 * so a kill loses at most the turn in flight. The file is created at the first turn (a session
 * that never sent a message leaves nothing), 0600 in a 0700 folder, never through a symlink; a
 * file grown past its size is rewritten (atomically) to its recent half, and only the newest
 * sessions of a folder are kept.
 */
export class SessionSaver implements SessionJournal {
  private open: OpenFile | undefined;
  /** The history as last saved, a JSON string per message, to tell an append from a change. */
  private savedKeys: string[] = [];
  private turns: SavedTurn[] = [];
  private resumed: SavedSession | undefined;
  /**
   * The resumed session's file is not this person's (see notYours): its first save writes the
   * whole conversation to a file of their own instead, and nothing more goes into that one.
   */
  private copyWhole = false;
  private broken = false;
  /** Closed by its owner (not by a cleared conversation, which goes on in a new file). */
  private closed = false;
  private saving: Promise<unknown> = Promise.resolve();
  private savedId: string | undefined;
  private readonly maxBytes: number;
  /**
   * The resumed session's file marked in use from the start, not only once the first turn is
   * saved: another mcpterm asked to continue it meanwhile is told it is being written.
   */
  private unmarkResumed: (() => void) | undefined;

  constructor(
    private readonly options: SessionSaverOptions,
    resumed?: SavedSession,
  ) {
    this.maxBytes = options.maxBytes ?? MAX_SESSION_BYTES;
    if (resumed) {
      this.resumed = resumed;
      this.savedKeys = resumed.history.map((message) => JSON.stringify(message));
      this.turns = [...resumed.turns];
      this.unmarkResumed = takeClaim(resumed) ?? markInUse(resumed.file);
    }
  }

  /** The id of the session being saved, once it has a file (or the one it resumes). */
  get id(): string | undefined {
    return this.savedId ?? this.resumed?.id;
  }

  async turnEnded(ended: EndedTurn): Promise<string | undefined> {
    if (this.broken) return undefined;
    try {
      const saving = this.save(ended);
      this.saving = saving.catch(() => undefined);
      await saving;
      return undefined;
    } catch (error) {
      // Told once: the conversation goes on, unsaved, rather than failing every turn.
      this.broken = true;
      this.close();
      return `This session is no longer being saved: ${errorMessage(error).replace(/\.$/, "")}.`;
    }
  }

  /** Resolves once the turn being saved is written (its redaction may wait on secretlint). */
  async settled(): Promise<void> {
    await this.saving;
  }

  cleared(): void {
    this.close();
    this.closed = false;
    this.resumed = undefined;
    this.savedId = undefined;
    this.savedKeys = [];
    this.turns = [];
    this.broken = false;
  }

  close(): void {
    if (this.open) {
      closeSync(this.open.fd);
      this.open.unmark();
    }
    this.unmarkResumed?.();
    this.unmarkResumed = undefined;
    this.open = undefined;
    this.closed = true;
  }

  private async save(ended: EndedTurn): Promise<void> {
    const keys = ended.history.map((message) => JSON.stringify(message));
    const appended =
      this.savedKeys.length <= keys.length && this.savedKeys.every((key, index) => key === keys[index]);
    const turn: SavedTurn = {
      turn: ended.turn,
      at: ended.at,
      model: ended.model,
      input: ended.input,
      attachments: ended.attachments,
      answer: ended.answer,
      reason: ended.reason,
      tools: ended.tools,
    };
    const change = appended
      ? { append: ended.history.slice(this.savedKeys.length) }
      : { replace: ended.history };
    // The full rule set too: a message or a tool call's arguments may hold a secret only it finds.
    // Escaped as it is written (json-escapes.ts), and measured so.
    const line = fileSafeJson(
      `${await fullyRedactedLine({ type: "turn", ...turn, ...change }, this.options.redaction)}\n`,
    );
    // Closed while the line was redacted: no file is opened again after its session ended.
    if (this.closed) return;
    const target = this.open ?? this.openFile();
    this.turns.push(turn);
    this.savedKeys = keys;
    if (this.copyWhole) {
      this.copyWhole = false;
      await this.rewrite(target, ended.history);
      return;
    }
    if (target.bytes + Buffer.byteLength(line) > this.maxBytes) {
      await this.rewrite(target, ended.history);
      return;
    }
    this.write(target, line);
  }

  private openFile(): OpenFile {
    const { dir, cwd } = this.options;
    // A cloned repository may bring its own .mcpterm: never write where a link in it leads.
    ensureProjectStateFolder(cwd, dir);
    const resumed = this.resumed;
    this.copyWhole = resumed !== undefined && notYours(resumed, cwd);
    this.open = resumed && !this.copyWhole ? this.reopen(resumed) : this.create();
    this.savedId = this.open.header.id;
    return this.open;
  }

  private create(): OpenFile {
    const now = this.options.now?.() ?? new Date();
    const id = this.options.id ?? newSessionId(now);
    // A copy of a session that is not the person's holds words that may not be theirs: it is
    // never marked as theirs, so --continue does not take it up later as if it were.
    const mark = this.copyWhole ? undefined : this.options.mark?.(id, this.options.cwd);
    const header = sessionHeader(id, now.toISOString(), this.options.cwd, mark);
    const file = path.join(this.options.dir, `${header.id}.jsonl`);
    // O_EXCL: a new file, never an existing one or a symlink's target.
    const fd = openSync(
      file,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND,
      0o600,
    );
    const opened: OpenFile = { header, file, fd, bytes: 0, unmark: markInUse(file) };
    // The header is mcpterm's own: the session's id, when it began and the project's folder.
    this.write(opened, fileSafeJson(`${redactedLine(header, this.options.redaction.sync)}\n`));
    this.prune(file);
    return opened;
  }

  /** Appends to a resumed session's own file; a torn last line is closed first, so it stays one bad line. */
  private reopen(saved: SavedSession): OpenFile {
    const fd = openSync(saved.file, constants.O_RDWR | constants.O_APPEND | constants.O_NOFOLLOW);
    const opened: OpenFile = {
      header: sessionHeader(saved.id, saved.createdAt, saved.cwd, saved.mark),
      file: saved.file,
      fd,
      bytes: fstatSync(fd).size,
      unmark: markInUse(saved.file),
    };
    const last = Buffer.alloc(1);
    if (opened.bytes > 0 && readSync(fd, last, 0, 1, opened.bytes - 1) === 1 && last[0] !== 0x0a) {
      this.write(opened, "\n");
    }
    return opened;
  }

  /** Appends text already made safe for the file (fileSafeJson). */
  private write(target: OpenFile, line: string): void {
    writeSync(target.fd, line);
    target.bytes += Buffer.byteLength(line);
  }

  /** The file grew past its size: it becomes the header and one snapshot, swapped in by a rename. */
  private async rewrite(target: OpenFile, history: EndedTurn["history"]): Promise<void> {
    const snapshot = {
      type: "snapshot",
      turns: fitTurns(this.turns),
      history: fitHistory(history, this.maxBytes / 2),
    };
    const body = fileSafeJson(
      `${redactedLine(target.header, this.options.redaction.sync)}\n` +
        `${await fullyRedactedLine(snapshot, this.options.redaction)}\n`,
    );
    // Closed while the snapshot was redacted: its file is not touched again.
    if (this.open !== target) return;
    const temporary = `${target.file}.${randomBytes(8).toString("hex")}.tmp`;
    writeFileSync(temporary, body, { flag: "wx", mode: 0o600 });
    try {
      renameSync(temporary, target.file);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
    closeSync(target.fd);
    const fd = openSync(target.file, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
    this.open = { ...target, fd, bytes: Buffer.byteLength(body) };
  }

  /**
   * Keeps the newest sessions of the folder: the oldest beyond the limit are deleted, but not one
   * another running mcpterm is writing (see session-in-use.ts).
   */
  private prune(current: string): void {
    const limit = this.options.maxSessions ?? MAX_SAVED_SESSIONS;
    const others = readdirSync(this.options.dir)
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => path.join(this.options.dir, name))
      .filter((file) => file !== current && !inUseElsewhere(file))
      .flatMap((file) => {
        try {
          const info = lstatSync(file);
          return info.isFile() ? [{ file, modified: info.mtimeMs }] : [];
        } catch {
          return [];
        }
      })
      .sort((a, b) => b.modified - a.modified || b.file.localeCompare(a.file));
    for (const old of others.slice(Math.max(0, limit - 1))) {
      rmSync(old.file, { force: true });
      forgetMarker(old.file);
    }
  }
}

/**
 * Whether a resumed session's file may have come with the project rather than from this person's
 * mcpterm (resumeNotices tells them so): it names no folder or another one, or shows signs of
 * another origin (readable by others, tracked by git). Appending to it would put their new turns
 * in a file the project may publish.
 */
function notYours(saved: SavedSession, cwd: string): boolean {
  return (
    (saved.foreign?.length ?? 0) > 0 ||
    !path.isAbsolute(saved.cwd) ||
    path.resolve(saved.cwd) !== path.resolve(cwd)
  );
}
