import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { formatBytes } from "../text/index.js";
import { MAX_SESSION_BYTES } from "./saved-session-bounds.js";
import type { SavedSession } from "./saved-session.js";

/** Where a working folder's sessions are saved, beside its traces. */
export function sessionsDir(cwd: string): string {
  return path.join(cwd, ".mcpterm", "sessions");
}

/** Session ids as mcpterm makes them (see newSessionId); anything else is never a file name. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function isSessionId(id: string): boolean {
  return SESSION_ID.test(id) && !id.includes("..");
}

/** A file is refused past this size unread: it cannot be one mcpterm wrote. */
const MAX_READ_BYTES = 2 * MAX_SESSION_BYTES;

export interface SessionFile {
  id: string;
  file: string;
  /** When it was last written (a resumed session counts as new again). */
  modified: Date;
}

/**
 * The saved sessions of `dir`, newest first. Only regular `.jsonl` files count: a symlink
 * planted in a cloned repository's `.mcpterm/sessions` is never followed.
 */
export async function listSessionFiles(dir: string): Promise<SessionFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const files = await Promise.all(
    names
      .filter((name) => name.endsWith(".jsonl") && isSessionId(name.slice(0, -".jsonl".length)))
      .map(async (name): Promise<SessionFile | undefined> => {
        const file = path.join(dir, name);
        try {
          const info = await lstat(file);
          return info.isFile()
            ? { id: name.slice(0, -".jsonl".length), file, modified: info.mtime }
            : undefined;
        } catch {
          return undefined;
        }
      }),
  );
  return files
    .filter((entry) => entry !== undefined)
    .sort((a, b) => b.modified.getTime() - a.modified.getTime() || b.id.localeCompare(a.id));
}

export type ReadSession = { ok: true; session: SavedSession } | { ok: false; reason: string };

/** Reads one saved session; what is wrong with a file is one clause, for a sentence naming it. */
export async function readSessionFile(file: string): Promise<ReadSession> {
  let content: string;
  try {
    const info = await lstat(file);
    if (!info.isFile()) return { ok: false, reason: "it is not a regular file" };
    if (info.size > MAX_READ_BYTES) {
      return {
        ok: false,
        reason: `it is ${formatBytes(info.size)}, more than a saved session can be (${formatBytes(MAX_READ_BYTES)})`,
      };
    }
    content = await readFile(file, "utf8");
  } catch (error) {
    return {
      ok: false,
      reason: `it could not be read (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    };
  }
  // Its schemas (and zod) load with the first session read, not with every run that saves one.
  const { parseSession } = await import("./saved-session.js");
  const parsed = parseSession(content);
  if (!parsed.ok) return parsed;
  // The id is shown, exported in JSON and appended under: it must be the one the file is named by.
  if (parsed.session.id !== path.basename(file, ".jsonl")) {
    return { ok: false, reason: "its header names another session than its file name" };
  }
  return { ok: true, session: { ...parsed.session, file } };
}
