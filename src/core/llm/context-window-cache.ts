import { createHash } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readRegularFileSync } from "../files/regular-file.js";
import path from "node:path";
import type { ContextWindow } from "./types.js";

/** How long an endpoint's answer is believed: a day, as a server's window rarely changes sooner. */
export const CONTEXT_WINDOW_CACHE_MS = 24 * 60 * 60 * 1000;
/** Entries kept at most; the oldest go first. */
const MAX_ENTRIES = 64;
const FILE_NAME = "context-windows.json";

interface Entry extends ContextWindow {
  /** When the endpoint answered, in ms since the epoch. */
  at: number;
}

/**
 * The context windows endpoints reported (or that they report none), per endpoint and model, in
 * `<user cache folder>/context-windows.json`, so that a run does not ask again for a day. The
 * endpoint and model are kept only as a hash: a base URL may hold a password. Reading or writing
 * it never fails a run: a missing, torn or unwritable file only means asking the endpoint.
 */
export class ContextWindowCache {
  private readonly file: string;

  constructor(
    private readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.file = path.join(dir, FILE_NAME);
  }

  /** The answer kept for this endpoint and model, if it is younger than a day. */
  get(baseUrl: string, model: string): ContextWindow | undefined {
    const entry = this.read()[keyOf(baseUrl, model)];
    const age = entry ? this.now() - entry.at : Infinity;
    if (!entry || age < 0 || age >= CONTEXT_WINDOW_CACHE_MS) return undefined;
    return { tokens: entry.tokens, source: entry.source, detail: `${entry.detail}, remembered` };
  }

  set(baseUrl: string, model: string, window: ContextWindow): void {
    try {
      const entries = this.read();
      entries[keyOf(baseUrl, model)] = { ...window, at: this.now() };
      const kept = Object.entries(entries)
        .sort(([, a], [, b]) => b.at - a.at)
        .slice(0, MAX_ENTRIES);
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      // Written aside and renamed, so a run reading at the same moment sees the old file or the new.
      const partial = `${this.file}.${process.pid}.tmp`;
      writeFileSync(partial, JSON.stringify(Object.fromEntries(kept)), { mode: 0o600 });
      renameSync(partial, this.file);
    } catch {
      // Only the next run's time is lost; no half-written file is left beside the cache.
      rmSync(`${this.file}.${process.pid}.tmp`, { force: true });
    }
  }

  private read(): Record<string, Entry> {
    try {
      // A named pipe planted in the cache folder would block the whole process on a plain read.
      const parsed: unknown = JSON.parse(readRegularFileSync(this.file));
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
      return Object.fromEntries(Object.entries(parsed).filter(([, entry]) => isEntry(entry)));
    } catch {
      return {};
    }
  }
}

const MAX_TOKENS = 100_000_000;

function keyOf(baseUrl: string, model: string): string {
  return createHash("sha256")
    .update(`${baseUrl.replace(/\/+$/, "")}\n${model}`)
    .digest("hex");
}

function isEntry(value: unknown): value is Entry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.tokens === "number" &&
    Number.isInteger(entry.tokens) &&
    entry.tokens >= 256 &&
    // No model has a window near this; a larger number is a planted or broken file, not an answer.
    entry.tokens <= MAX_TOKENS &&
    (entry.source === "server" || entry.source === "default") &&
    typeof entry.detail === "string" &&
    typeof entry.at === "number"
  );
}
