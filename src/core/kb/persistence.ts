import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { ChunkIndexState } from "./chunk-index.js";

/**
 * Bump whenever the tokenizer, the chunker or this layout changes: an index written by another
 * version is rebuilt, never trusted.
 */
export const INDEX_FORMAT_VERSION = 1;
export const INDEX_FILE_NAME = "kb-index.json";

export interface PersistedIndex {
  /** The absolute knowledge-base folder the index was built from. */
  dir: string;
  updatedAt: string;
  state: ChunkIndexState;
}

export type LoadResult =
  | { kind: "loaded"; index: PersistedIndex; bytes: number }
  | { kind: "missing" }
  | { kind: "invalid"; reason: string };

const chunkSchema = z.object({
  path: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  heading: z.string(),
  title: z.string(),
  text: z.string(),
});

const fileSchema = z.object({
  format: z.literal("mcpterm-kb-index"),
  version: z.number(),
  dir: z.string(),
  updatedAt: z.string(),
  state: z.object({
    files: z.record(z.string(), z.object({ hash: z.string(), chunkIds: z.array(z.number().int()) })),
    chunks: z.record(z.string(), chunkSchema),
    nextId: z.number().int(),
    // minisearch checks its own serialization when it loads it.
    miniSearch: z.looseObject({}),
  }),
});

export function indexFilePath(indexDir: string): string {
  return path.join(indexDir, INDEX_FILE_NAME);
}

export async function loadIndexFile(indexDir: string): Promise<LoadResult> {
  let raw: string;
  try {
    raw = await readFile(indexFilePath(indexDir), "utf8");
  } catch {
    return { kind: "missing" };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { kind: "invalid", reason: "not valid JSON" };
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (version !== INDEX_FORMAT_VERSION) {
    return { kind: "invalid", reason: `format version ${String(version)}, expected ${INDEX_FORMAT_VERSION}` };
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) return { kind: "invalid", reason: "unexpected layout" };
  const { dir, updatedAt, state } = parsed.data;
  return {
    kind: "loaded",
    index: { dir, updatedAt, state: state as ChunkIndexState },
    bytes: Buffer.byteLength(raw),
  };
}

/**
 * Writes the index atomically (temp file, then rename), so a crash never leaves half a file.
 * The temp file has a random name and is created exclusively (`wx`), which never follows a
 * symlink: a cloned repository cannot plant one there to have mcpterm overwrite another file.
 * The rename replaces a symlink at the target itself, not the file it points to.
 */
export async function saveIndexFile(indexDir: string, index: PersistedIndex): Promise<number> {
  const body = JSON.stringify({
    format: "mcpterm-kb-index",
    version: INDEX_FORMAT_VERSION,
    dir: index.dir,
    updatedAt: index.updatedAt,
    state: index.state,
  });
  return writeAtomically(indexFilePath(indexDir), body);
}

/** Writes `body` to `target` through an exclusive temp file and a rename; returns the size. */
export async function writeAtomically(target: string, body: string): Promise<number> {
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${randomBytes(8).toString("hex")}.tmp`;
  await writeFile(temporary, body, { encoding: "utf8", flag: "wx", mode: 0o600 });
  try {
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return (await stat(target)).size;
}
