import { realpath } from "node:fs/promises";
import path from "node:path";
import { isWithinPath } from "../config/index.js";
import { DEFAULT_MAX_FILE_BYTES } from "../kb/index.js";
import { decodeText, readFileBytes } from "../kb/file-read.js";
import { scanFolder } from "../kb/file-scan.js";
import { loadIgnoreRules } from "../kb/ignore-rules.js";
import { resolveDocumentPath } from "./document-path.js";
import { documentMimeType } from "./mime-type.js";

export interface DocumentEntry {
  /** Relative to the knowledge folder, forward slashes. */
  path: string;
  size: number;
  mimeType: string;
}

export type DocumentText =
  | { ok: true; path: string; mimeType: string; text: string; lineCount: number }
  | { ok: false; reason: string };

/**
 * The documents of the knowledge folder as the index sees them: the same scan, ignore rules,
 * size limit and symlink rule, so a client can read exactly what search can return, nothing more.
 */
export class DocumentCatalog {
  private entries: DocumentEntry[] = [];
  private byPath = new Map<string, DocumentEntry>();

  constructor(
    readonly dir: string,
    /** Folders never listed, such as the index folder when it sits inside the knowledge folder. */
    private readonly exclude: readonly string[] = [],
  ) {}

  /** Scans the folder again; returns whether the list (paths or sizes) changed. */
  async refresh(): Promise<boolean> {
    const scan = await scanFolder(this.dir, {
      ignore: await loadIgnoreRules(this.dir),
      maxFileBytes: DEFAULT_MAX_FILE_BYTES,
      exclude: this.exclude,
    });
    const next = scan.files.map((file) => ({
      path: file.path,
      size: file.size,
      mimeType: documentMimeType(file.path),
    }));
    const changed =
      next.length !== this.entries.length ||
      next.some((entry, i) => entry.path !== this.entries[i]?.path || entry.size !== this.entries[i].size);
    this.entries = next;
    this.byPath = new Map(next.map((entry) => [entry.path, entry]));
    return changed;
  }

  /** Sorted by path. */
  list(): readonly DocumentEntry[] {
    return this.entries;
  }

  get(relative: string): DocumentEntry | undefined {
    return this.byPath.get(relative);
  }

  /** Reads one document, refusing anything that is not one (with one sentence saying why). */
  async read(given: string): Promise<DocumentText> {
    const resolved = resolveDocumentPath(this.dir, given);
    if (!resolved.ok) return resolved;
    const entry = this.byPath.get(resolved.path);
    if (!entry) {
      return {
        ok: false,
        reason: `There is no document ${JSON.stringify(resolved.path)} in the knowledge base; search it or list its resources to find one.`,
      };
    }
    // Checked again at read time: the file may have become a symlink out since the last scan.
    const [real, root] = await Promise.all([
      realpath(resolved.absolute).catch(() => undefined),
      realpath(this.dir).catch(() => undefined),
    ]);
    if (real === undefined || root === undefined) {
      return { ok: false, reason: `The document ${JSON.stringify(resolved.path)} can no longer be read.` };
    }
    if (!isWithinPath(real, root)) {
      return {
        ok: false,
        reason: `The path ${JSON.stringify(resolved.path)} leads outside the knowledge folder through a symlink; it is not served.`,
      };
    }
    const read = await readFileBytes(real);
    if (!read.ok)
      return { ok: false, reason: `The document ${JSON.stringify(resolved.path)} is ${read.reason}.` };
    const decoded = decodeText(read.bytes);
    if (!decoded.ok) {
      return {
        ok: false,
        reason: `The document ${JSON.stringify(resolved.path)} is not text (${decoded.reason}).`,
      };
    }
    const text = decoded.text;
    const lineCount = text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    return { ok: true, path: resolved.path, mimeType: entry.mimeType, text, lineCount };
  }
}

/** Where mcpterm keeps the index for a project: never a document, even inside the knowledge folder. */
export function indexFolder(cwd: string): string {
  return path.join(cwd, ".mcpterm", "kb");
}
