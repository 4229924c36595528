import { randomBytes } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { lstat, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { readRegularFile } from "../files/regular-file.js";
import { z } from "zod";
import { BUCKETS, ChunkIndex, type StoredSegment } from "./chunk-index.js";
import { decodeSegment, INDEX_FORMAT_VERSION, SegmentError, type Segment } from "./segment.js";
import { processRuns } from "../process-runs.js";

export { INDEX_FORMAT_VERSION } from "./segment.js";

/**
 * The index on disk, in .mcpterm/kb:
 *   kb-manifest.json      which segment file holds each bucket of files (name, size, crc32);
 *                         small, replaced atomically (temp file, then rename)
 *   seg-<bucket>-<id>.kbs one immutable binary segment per non-empty bucket (segment.ts), written
 *                         once under a fresh name and deleted once no manifest names it
 *   kb.lock               held while a process writes, so two mcpterm processes never interleave
 * Saving after one file changed writes that file's segment and the manifest, nothing else.
 */
export const MANIFEST_FILE_NAME = "kb-manifest.json";
/** The single-document index of format version 1; replaced (and deleted) on the first save. */
export const LEGACY_INDEX_FILE_NAME = "kb-index.json";
export const LOCK_FILE_NAME = "kb.lock";
const SEGMENT_NAME = /^seg-(\d+)-[0-9a-f]{16}\.kbs$/;
/** A lock older than this is taken over: its writer died or hung (a save takes well under a second). */
const STALE_LOCK_MS = 30_000;
const LOCK_WAIT_MS = 20_000;

export type LoadResult =
  | { kind: "loaded"; index: ChunkIndex; updatedAt: string; bytes: number }
  /** Nothing usable on disk and nothing wrong with it: no index yet, or one of another folder. */
  | { kind: "missing" }
  | { kind: "invalid"; reason: string };

const manifestSchema = z.object({
  format: z.literal("mcpterm-kb-manifest"),
  version: z.number(),
  dir: z.string(),
  updatedAt: z.string(),
  buckets: z.literal(BUCKETS),
  segments: z.array(
    z.object({
      bucket: z
        .number()
        .int()
        .min(0)
        .max(BUCKETS - 1),
      file: z.string().regex(SEGMENT_NAME),
      bytes: z.number().int().nonnegative(),
      crc: z.number().int().nonnegative(),
    }),
  ),
});

type Manifest = z.infer<typeof manifestSchema>;

export function manifestPath(indexDir: string): string {
  return path.join(indexDir, MANIFEST_FILE_NAME);
}

/**
 * Loads the index `dir` was last saved with. A manifest or segment that is truncated, corrupt,
 * of another format version or missing is reported as invalid (the caller rebuilds), never
 * trusted; a segment deleted under us by another process's save sends us back to its new manifest.
 */
export async function loadIndex(indexDir: string, dir: string): Promise<LoadResult> {
  let lastReason = "";
  for (let attempt = 0; attempt < 3; attempt++) {
    let raw: string;
    try {
      // The index folder may have come with a repository: a named pipe there would wait forever.
      raw = await readRegularFile(manifestPath(indexDir), "utf8");
    } catch {
      try {
        await lstat(path.join(indexDir, LEGACY_INDEX_FILE_NAME));
        return { kind: "invalid", reason: `${LEGACY_INDEX_FILE_NAME} is an index of an older format` };
      } catch {
        return { kind: "missing" };
      }
    }
    const manifest = parseManifest(raw);
    if (typeof manifest === "string") return { kind: "invalid", reason: manifest };
    if (manifest.dir !== dir) return { kind: "missing" };
    const read = await readSegments(indexDir, manifest);
    if (read === "moved") {
      lastReason = "a segment named by the manifest is missing";
      continue;
    }
    if (typeof read === "string") return { kind: "invalid", reason: read };
    try {
      const index = ChunkIndex.fromSegments(read.segments);
      return {
        kind: "loaded",
        index,
        updatedAt: manifest.updatedAt,
        bytes: read.bytes + Buffer.byteLength(raw),
      };
    } catch (error) {
      return { kind: "invalid", reason: error instanceof Error ? error.message : String(error) };
    }
  }
  return { kind: "invalid", reason: lastReason };
}

function parseManifest(raw: string): Manifest | string {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return `${MANIFEST_FILE_NAME} is not valid JSON`;
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (version !== INDEX_FORMAT_VERSION) {
    return `${MANIFEST_FILE_NAME} has format version ${String(version)}, expected ${INDEX_FORMAT_VERSION}`;
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) return `${MANIFEST_FILE_NAME} has an unexpected layout`;
  const buckets = new Set(parsed.data.segments.map((entry) => entry.bucket));
  if (buckets.size !== parsed.data.segments.length) return `${MANIFEST_FILE_NAME} names a bucket twice`;
  return parsed.data;
}

/** "moved": a segment is gone (another save replaced it), else what is wrong. */
type ReadProblem = string;

async function readSegments(
  indexDir: string,
  manifest: Manifest,
): Promise<
  { segments: Array<{ segment: Segment; stored: StoredSegment } | undefined>; bytes: number } | ReadProblem
> {
  const segments: Array<{ segment: Segment; stored: StoredSegment } | undefined> = [];
  let bytes = 0;
  const reads = await Promise.all(
    manifest.segments.map(async (entry) => {
      try {
        return await readRegularFile(path.join(indexDir, entry.file));
      } catch (error) {
        return (error as { code?: unknown }).code === "ENOENT" ? "moved" : `${entry.file} is unreadable`;
      }
    }),
  );
  for (const [i, entry] of manifest.segments.entries()) {
    const body = reads[i];
    if (body === "moved") return "moved";
    if (typeof body === "string" || body === undefined) return body ?? "unreadable segment";
    if (body.length !== entry.bytes)
      return `${entry.file} is ${body.length} bytes, the manifest says ${entry.bytes}`;
    if (body.length < 16 || body.readUInt32LE(12) !== entry.crc)
      return `${entry.file} is not the segment the manifest names`;
    try {
      segments[entry.bucket] = {
        segment: decodeSegment(body),
        stored: { file: entry.file, bytes: entry.bytes, crc: entry.crc },
      };
    } catch (error) {
      if (error instanceof SegmentError) return `${entry.file}: ${error.message}`;
      throw error;
    }
    bytes += body.length;
  }
  return { segments, bytes };
}

/**
 * Saves the index: under the lock, each segment that changed (or that another process's save
 * deleted) is written under a new name, then the manifest is replaced, then segment files no
 * manifest names any more (and a format-1 kb-index.json) are deleted. Returns the index's size.
 *
 * Every file is created exclusively (`wx`), which never follows a symlink: a cloned repository
 * cannot plant one to have mcpterm overwrite another file; the manifest's rename replaces a
 * symlink at its name itself, not what it points to.
 */
export async function saveIndex(
  indexDir: string,
  index: ChunkIndex,
  meta: { dir: string; updatedAt: string },
  lockWaitMs = LOCK_WAIT_MS,
): Promise<number> {
  await mkdir(indexDir, { recursive: true });
  // Looked at before any segment is written, so a save that cannot finish leaves nothing behind.
  const manifestInfo = lstatOrMissing(manifestPath(indexDir));
  if (manifestInfo?.isDirectory()) {
    throw new IndexSaveError(`${MANIFEST_FILE_NAME} there is a folder, not a file; remove it`);
  }
  // The writes under the lock are synchronous: a few small files and one segment of about 1/64
  // of the index, a few milliseconds of blocking against a dozen thread-pool round trips, which
  // on a loaded machine cost several times that.
  return withLock(indexDir, lockWaitMs, () => {
    const entries: Manifest["segments"] = [];
    let bytes = 0;
    for (const [bucket, { segment, stored }] of index.segments().entries()) {
      if (!segment) continue;
      let kept = stored;
      if (kept && !isFileOfSize(path.join(indexDir, kept.file), kept.bytes)) kept = undefined;
      if (!kept) {
        const body = segment.encode();
        const file = `seg-${bucket}-${randomBytes(8).toString("hex")}.kbs`;
        writeFileSync(path.join(indexDir, file), body, { flag: "wx", mode: 0o600 });
        kept = { file, bytes: body.length, crc: body.readUInt32LE(12) };
        index.markStored(bucket, kept);
      }
      entries.push({ bucket, ...kept });
      bytes += kept.bytes;
    }
    const manifest: Manifest = {
      format: "mcpterm-kb-manifest",
      version: INDEX_FORMAT_VERSION,
      dir: meta.dir,
      updatedAt: meta.updatedAt,
      buckets: BUCKETS,
      segments: entries,
    };
    bytes += writeAtomicallySync(manifestPath(indexDir), JSON.stringify(manifest));
    const named = new Set(entries.map((entry) => entry.file));
    for (const name of readdirSync(indexDir)) {
      if ((SEGMENT_NAME.test(name) && !named.has(name)) || name === LEGACY_INDEX_FILE_NAME) {
        // Files and links only: a folder with such a name is no segment of ours to delete.
        if (!lstatOrMissing(path.join(indexDir, name))?.isDirectory()) {
          rmSync(path.join(indexDir, name), { force: true });
        }
      }
    }
    return Promise.resolve(bytes);
  });
}

/** Synchronous: one stat per bucket, 64 of them, on every save (a few microseconds each). */
function isFileOfSize(file: string, bytes: number): boolean {
  try {
    const info = lstatSync(file);
    return info.isFile() && info.size === bytes;
  } catch {
    return false;
  }
}

/**
 * Runs `write` holding kb.lock (created exclusively; its content names the holder). A lock whose
 * process is gone, or older than STALE_LOCK_MS, is taken over; after LOCK_WAIT_MS of waiting on a
 * live one this save is given up (IndexSaveError), never the other's: breaking the lock of a
 * writer that is only slow (stopped, swapping, a laptop asleep) had its cleanup delete segments
 * the other's manifest then named.
 */
function formatWait(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

async function withLock<T>(indexDir: string, waitMs: number, write: () => Promise<T>): Promise<T> {
  const lock = path.join(indexDir, LOCK_FILE_NAME);
  const token = `${process.pid} ${randomBytes(8).toString("hex")}\n`;
  const started = Date.now();
  for (;;) {
    try {
      writeFileSync(lock, token, { flag: "wx", mode: 0o600 });
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EEXIST") throw error;
    }
    const held = lstatOrMissing(lock);
    if (held?.isDirectory())
      throw new IndexSaveError(`${LOCK_FILE_NAME} there is a folder, not a file; remove it`);
    // A link (dangling or not) is nobody's lock: removed as a link, never followed.
    if (held?.isSymbolicLink() || (await lockIsStale(lock))) {
      await rm(lock, { force: true });
      continue;
    }
    if (Date.now() - started > waitMs) {
      throw new IndexSaveError(
        `another mcpterm process (${lockHolder(lock)}) has held its lock for over ${formatWait(waitMs)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  try {
    return await write();
  } finally {
    try {
      if (lstatSync(lock).isFile() && readFileSync(lock, "utf8") === token) rmSync(lock, { force: true });
    } catch {
      // Taken over or removed: nothing of ours to release.
    }
  }
}

/** Why a save of the index could not be made, as a clause: the index is still used from memory. */
export class IndexSaveError extends Error {}

function lstatOrMissing(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

/** `pid 123`, as the lock names its holder, for the sentence. */
function lockHolder(lock: string): string {
  try {
    if (!lstatSync(lock).isFile()) return "pid unknown";
    const pid = Number(readFileSync(lock, "utf8").split(" ")[0]);
    return Number.isInteger(pid) && pid > 0 ? `pid ${pid}` : "pid unknown";
  } catch {
    return "pid unknown";
  }
}

async function lockIsStale(lock: string): Promise<boolean> {
  try {
    // Not a file (a named pipe a repository brought, which a read would wait on forever): stale.
    const info = await lstat(lock);
    if (!info.isFile() || Date.now() - info.mtimeMs > STALE_LOCK_MS) return true;
    const content = await readFile(lock, "utf8");
    const pid = Number(content.split(" ")[0]);
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - info.mtimeMs > 1000;
    return !processRuns(pid);
  } catch {
    return false; // gone already, or being written: try again
  }
}

/** writeAtomically, synchronously. */
function writeAtomicallySync(target: string, body: string): number {
  const temporary = `${target}.${randomBytes(8).toString("hex")}.tmp`;
  writeFileSync(temporary, body, { flag: "wx", mode: 0o600 });
  try {
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return Buffer.byteLength(body);
}

/** Writes `body` to `target` through an exclusive temp file and a rename; returns the size. */
export async function writeAtomically(target: string, body: string | Buffer): Promise<number> {
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${randomBytes(8).toString("hex")}.tmp`;
  await writeFile(temporary, body, { flag: "wx", mode: 0o600 });
  try {
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return (await stat(target)).size;
}
