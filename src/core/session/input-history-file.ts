import { appendFileSync, lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureProjectStateFolder, PROJECT_STATE_FOLDER } from "../config/project-state-folder.js";

/** The most lines kept; the file is cut back to this many once it holds twice as many. */
const KEPT = 500;
/**
 * A longer message (a pasted document or log) is not written: the file is read whole at every
 * start and after every message, and 500 pasted logs would make both take seconds. ↑ still
 * recalls it in the session it was sent in.
 */
export const LONGEST_KEPT_CHARS = 10_000;

/**
 * What the person sent in a project, newest last, so ↑ recalls it in the next session too (as a
 * shell's history does): `.mcpterm/history.jsonl`, one JSON string a line, 0600, each entry
 * redacted before it is written. A file mcpterm did not write — not a plain 0600 file, as one a
 * cloned repository brought would be — is not read: its lines would come back as the person's
 * own words.
 */
export class InputHistoryFile {
  readonly file: string;
  /** Entries are written one after another, each once it is redacted, in the order sent. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly cwd: string,
    /** The full rule set (secretlint's preset too): the file keeps what the person typed. */
    private readonly redact: (text: string) => Promise<string>,
  ) {
    this.file = path.join(cwd, PROJECT_STATE_FOLDER, "history.jsonl");
  }

  load(): string[] {
    if (!this.ours()) return [];
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      return [];
    }
    // Written by an older mcpterm, or by hand: long entries are left out on the way in too.
    return entries(text).filter(isKept).slice(-KEPT);
  }

  /** Adds one entry; a history that cannot be written is lost quietly (it is a convenience). */
  append(entry: string): void {
    if (entry.trim() === "" || !isKept(entry)) return;
    this.writing = this.writing.then(async () => this.write(await this.redact(entry))).catch(() => undefined);
  }

  /** Resolves once every entry appended so far is written (or given up). */
  settled(): Promise<void> {
    return this.writing;
  }

  private write(redacted: string): void {
    try {
      ensureProjectStateFolder(this.cwd, path.dirname(this.file));
      if (!this.ours() && this.exists()) return;
      if (isKept(redacted)) appendFileSync(this.file, `${JSON.stringify(redacted)}\n`, { mode: 0o600 });
      const lines = entries(readFileSync(this.file, "utf8"));
      const kept = lines.filter(isKept);
      // Cut back when long, and at once when an older mcpterm left a pasted document in it.
      if (lines.length > 2 * KEPT || kept.length < lines.length) {
        const temporary = `${this.file}.${process.pid}.tmp`;
        // A name that is there (a link planted in the project, a file left by a crash) is
        // removed, not written through: the new file is made here, the person's alone.
        rmSync(temporary, { force: true });
        writeFileSync(
          temporary,
          kept
            .slice(-KEPT)
            .map((line) => `${JSON.stringify(line)}\n`)
            .join(""),
          { mode: 0o600, flag: "wx" },
        );
        renameSync(temporary, this.file);
      }
    } catch {
      // No history this time; the message itself was sent.
    }
  }

  private ours(): boolean {
    try {
      const info = lstatSync(this.file);
      return info.isFile() && (info.mode & 0o077) === 0;
    } catch {
      return false;
    }
  }

  private exists(): boolean {
    try {
      lstatSync(this.file);
      return true;
    } catch {
      return false;
    }
  }
}

function entries(text: string): string[] {
  return text.split("\n").flatMap((line) => {
    if (line.trim() === "") return [];
    try {
      const value: unknown = JSON.parse(line);
      return typeof value === "string" ? [value] : [];
    } catch {
      return [];
    }
  });
}

/** Whether an entry is short enough for the file (see LONGEST_KEPT_CHARS). */
function isKept(entry: string): boolean {
  return entry.length <= LONGEST_KEPT_CHARS;
}
