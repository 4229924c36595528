import path from "node:path";
import { performance } from "node:perf_hooks";
import { chunkFile } from "./chunker.js";
import { ChunkIndex, DEFAULT_K } from "./chunk-index.js";
import { fileKind } from "./file-kind.js";
import { decodeText, readFileBytes, type ReadResult } from "./file-read.js";
import { scanFolder, type ScannedFile } from "./file-scan.js";
import type { EmbeddingsClientOptions } from "./embeddings-client.js";
import { HybridRetriever } from "./hybrid-retriever.js";
import { loadIgnoreRules } from "./ignore-rules.js";
import { errorMessage } from "../errors.js";
import { withoutHiddenText } from "../policy/hidden-text.js";
import { redactWithPatterns, SECRET_PATTERNS } from "../policy/secret-patterns.js";
import { IndexSaveError, loadIndex, saveIndex } from "./persistence.js";
import type { FileStat } from "./segment.js";
import type { KbHit, KbStats, KnowledgeBase, RefreshReport, SearchOptions, SkippedFile } from "./types.js";

export interface OpenKnowledgeBaseOptions {
  /** The folder of notes to index. A missing folder is an empty knowledge base. */
  dir: string;
  /** Where the index is persisted, e.g. <project>/.mcpterm/kb. */
  indexDir: string;
  /** Files larger than this are skipped with a note (default 2 MiB). */
  maxFileBytes?: number;
  /** kb.embeddings, resolved: vectors are made and fused with the keyword ranking. */
  embeddings?: EmbeddingsClientOptions;
  /**
   * Told once when the embeddings endpoint fails and retrieval falls back to keywords, and once
   * when the index on disk was unusable (corrupt, truncated, another version) and was rebuilt.
   */
  onWarning?: (text: string) => void;
  /** How long a save waits on another live process's lock before it is given up (default 20 s). */
  lockWaitMs?: number;
}

export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

/**
 * A file's text as it is indexed, kept and embedded: with what the secret patterns find taken out
 * first. Shown passages were redacted anyway, but an index of the secret itself answered searches
 * for its first letters (`sk-proj-ABCD` found the file, `sk-proj-ABCX` did not: a key told one
 * character at a time to whoever can search, a model or an MCP client of `mcpterm serve`), and
 * kept it in the index files and the embeddings endpoint's requests. The patterns on the text
 * without its hidden characters: they read 40 MB in under a second, where the session's full
 * rule set (every disguise of a hidden text) doubled the time of a whole build.
 */
function withoutSecrets(text: string): string {
  // Hidden characters first: a key a zero-width space splits is whole once it goes, for the
  // patterns (shown passages are read so already). Line for line: a private key's block stays as
  // many lines, so citations after it hold.
  return redactWithPatterns(withoutHiddenText(text), [], SECRET_PATTERNS, { keepLines: true }).text;
}
/** Files read at once while refreshing: enough to hide disk latency, few enough to bound memory. */
const READ_CONCURRENCY = 16;

/**
 * Opens the knowledge base of `dir`, loading the persisted index when it is valid and was
 * built from the same folder; otherwise it starts empty and the next refresh rebuilds it.
 */
export async function openKnowledgeBase(options: OpenKnowledgeBaseOptions): Promise<KnowledgeBase> {
  const dir = path.resolve(options.dir);
  const indexDir = path.resolve(options.indexDir);
  const hybrid = options.embeddings
    ? new HybridRetriever(indexDir, options.embeddings, options.onWarning ?? (() => undefined))
    : undefined;
  await hybrid?.load();
  const loaded = await loadIndex(indexDir, dir);
  if (loaded.kind === "loaded") {
    return new LocalKnowledgeBase(
      dir,
      indexDir,
      options,
      loaded.index,
      loaded.updatedAt,
      loaded.bytes,
      hybrid,
    );
  }
  const kb = new LocalKnowledgeBase(dir, indexDir, options, ChunkIndex.empty(), undefined, 0, hybrid);
  // An index that is there but unusable is rebuilt by the first refresh, which says so once.
  if (loaded.kind === "invalid") kb.rebuildReason = loaded.reason;
  return kb;
}

class LocalKnowledgeBase implements KnowledgeBase {
  private pending: Promise<unknown> = Promise.resolve();
  /** False until the index on disk matches the one in memory (e.g. after a rebuild). */
  private persisted: boolean;
  /** Why the index on disk was not used; told (once) by the refresh that rebuilds it. */
  rebuildReason: string | undefined;

  constructor(
    readonly dir: string,
    private readonly indexDir: string,
    private readonly options: OpenKnowledgeBaseOptions,
    private index: ChunkIndex,
    private updatedAt: string | undefined,
    private indexBytes: number,
    private readonly hybrid: HybridRetriever | undefined,
  ) {
    this.persisted = updatedAt !== undefined;
  }

  /** Refreshes run one at a time, in call order. */
  refresh(): Promise<RefreshReport> {
    const run = this.pending.then(() => this.refreshNow());
    this.pending = run.catch(() => undefined);
    return run;
  }

  search(query: string, options: SearchOptions = {}): KbHit[] {
    return this.index.search(query, options.k ?? DEFAULT_K, options.minRelevance);
  }

  async retrieve(query: string, options: SearchOptions = {}): Promise<KbHit[]> {
    const k = options.k ?? DEFAULT_K;
    const fused = k > 0 ? await this.hybrid?.retrieve(this.index, query, k, options.minRelevance) : undefined;
    return fused ?? this.search(query, options);
  }

  stats(): KbStats {
    return {
      files: this.index.fileCount,
      chunks: this.index.chunkCount,
      indexBytes: this.indexBytes,
      updatedAt: this.updatedAt,
      dir: this.dir,
    };
  }

  private async refreshNow(): Promise<RefreshReport> {
    const started = performance.now();
    const report: RefreshReport = {
      added: [],
      updated: [],
      removed: [],
      unchanged: 0,
      skipped: [],
      durationMs: 0,
    };
    const scan = await scanFolder(this.dir, {
      ignore: await loadIgnoreRules(this.dir),
      maxFileBytes: this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      exclude: [this.indexDir],
    });
    report.skipped.push(...scan.skipped);

    const seen = new Set<string>();
    const toRead: ScannedFile[] = [];
    for (const file of scan.files) {
      // Same size, mtime and ctime as when it was indexed (long after its last write): unchanged.
      if (sameStat(this.index.fileStat(file.path), file)) {
        report.unchanged++;
        seen.add(file.path);
      } else toRead.push(file);
    }
    const stats = { changed: false };
    await forEachRead(toRead, (file, read, readAt) => {
      const skip = this.indexFile(file, read, report, settledStat(file, readAt));
      if (skip === "stat") stats.changed = true;
      else if (skip) report.skipped.push(skip);
      if (skip === undefined || skip === "stat") seen.add(file.path);
    });
    for (const indexed of this.index.paths()) {
      if (!seen.has(indexed)) {
        this.index.removeFile(indexed);
        report.removed.push(indexed);
      }
    }

    const changed = report.added.length + report.updated.length + report.removed.length > 0;
    if (changed || !this.persisted || stats.changed) {
      await this.index.compact();
      if (changed || !this.persisted || this.updatedAt === undefined)
        this.updatedAt = new Date().toISOString();
      const notSaved = await this.save();
      if (notSaved !== undefined) {
        report.notSaved = notSaved;
        this.options.onWarning?.(
          `The knowledge-base index could not be saved in ${this.indexDir} (${notSaved}); searches use it from memory, and the next run indexes again.`,
        );
      } else if (this.rebuildReason !== undefined) {
        this.options.onWarning?.(
          `The knowledge-base index in ${this.indexDir} was unusable (${this.rebuildReason}); it was rebuilt from ${this.dir}.`,
        );
        this.rebuildReason = undefined;
      }
    }
    await this.hybrid?.sync(this.index, (file) => this.index.fileHash(file));
    report.skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    report.durationMs = Math.round(performance.now() - started);
    return report;
  }

  /** Saves the index; why it could not be, as a clause, when it could not (a full disk, a folder in the way). */
  private async save(): Promise<string | undefined> {
    try {
      this.indexBytes = await saveIndex(
        this.indexDir,
        this.index,
        { dir: this.dir, updatedAt: this.updatedAt ?? new Date().toISOString() },
        this.options.lockWaitMs,
      );
      this.persisted = true;
      return undefined;
    } catch (error) {
      if (error instanceof IndexSaveError) return error.message;
      // A failing filesystem (EACCES, ENOSPC, EISDIR…) is told; a bug in mcpterm is not hidden.
      if (typeof (error as NodeJS.ErrnoException).code !== "string") throw error;
      return errorMessage(error);
    }
  }

  /**
   * Indexes one file if its content changed; returns why it was skipped, if it was, or "stat"
   * when only the stat to remember for it changed.
   */
  private indexFile(
    file: ScannedFile,
    read: ReadResult,
    report: RefreshReport,
    stat: FileStat | undefined,
  ): SkippedFile | "stat" | undefined {
    if (!read.ok) return { path: file.path, reason: read.reason };
    const previous = this.index.fileHash(file.path);
    if (previous === read.hash) {
      report.unchanged++;
      if (!stat || sameStat(this.index.fileStat(file.path), file)) return undefined;
      this.index.setFileStat(file.path, stat);
      return "stat";
    }
    const decoded = decodeText(read.bytes);
    if (!decoded.ok) return { path: file.path, reason: decoded.reason };
    const text = withoutSecrets(decoded.text);
    this.index.setFile(file.path, read.hash, chunkFile(file.path, text, fileKind(file.path)), stat);
    (previous === undefined ? report.added : report.updated).push(file.path);
    return undefined;
  }
}

/**
 * Reads files a few at a time but hands them to `use` strictly in list order, so that the
 * index (and its chunk ids) come out the same on every run.
 */
async function forEachRead(
  files: readonly ScannedFile[],
  use: (file: ScannedFile, read: ReadResult, readAt: number) => void,
): Promise<void> {
  for (let i = 0; i < files.length; i += READ_CONCURRENCY) {
    const batch = files.slice(i, i + READ_CONCURRENCY);
    const readAt = Date.now();
    const reads = await Promise.all(batch.map((file) => readFileBytes(file.absolutePath)));
    batch.forEach((file, j) => {
      const read = reads[j];
      if (read) use(file, read, readAt);
    });
  }
}

/**
 * A file's stat is remembered only when its last change was this long before it was read: a
 * write in the same clock tick as the read (or within a coarse filesystem's 2 s) could otherwise
 * leave the same size and times on different content. Both times must be that old: tools that
 * keep a file's mtime (rsync -a, cp -p, tar, unzip, touch -d) make a fresh write look old by its
 * mtime alone, and then only the ctime, which nothing can set back, shows the next write.
 */
const SETTLED_MS = 3000;

function settledStat(file: ScannedFile, readAt: number): FileStat | undefined {
  const settledBefore = readAt - SETTLED_MS;
  return file.mtimeMs > 0 && file.mtimeMs < settledBefore && file.ctimeMs < settledBefore
    ? [file.size, file.mtimeMs, file.ctimeMs]
    : undefined;
}

function sameStat(stat: FileStat | undefined, file: ScannedFile): boolean {
  return stat !== undefined && stat[0] === file.size && stat[1] === file.mtimeMs && stat[2] === file.ctimeMs;
}
