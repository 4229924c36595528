import { readRegularFile } from "../files/regular-file.js";
import path from "node:path";
import { z } from "zod";
import type { ChunkIndex } from "./chunk-index.js";
import { writeAtomically } from "./persistence.js";
import { EmbeddingsError, MAX_DIMENSIONS, type EmbeddingsClient } from "./embeddings-client.js";

export const VECTORS_FILE_NAME = "kb-vectors.json";
const FORMAT_VERSION = 1;
/** Passages sent in one request: few enough for any server's batch limit. */
const BATCH = 32;

interface FileVectors {
  hash: string;
  vectors: Float32Array[];
}

const fileSchema = z.object({
  format: z.literal("mcpterm-kb-vectors"),
  version: z.literal(FORMAT_VERSION),
  model: z.string(),
  endpoint: z.string(),
  dimensions: z.number().int().min(1).max(MAX_DIMENSIONS),
  files: z.record(z.string(), z.object({ hash: z.string(), vectors: z.array(z.string()) })),
});

/**
 * One unit vector per passage, kept beside the keyword index in kb-vectors.json and updated by
 * file hash: a file whose content did not change is never embedded again. Vectors made by another
 * model or endpoint are dropped, since they do not compare with the new ones.
 */
export class VectorIndex {
  private files = new Map<string, FileVectors>();
  private dimensions: number | undefined;
  private byChunk = new Map<number, Float32Array>();

  constructor(
    private readonly indexDir: string,
    private readonly client: EmbeddingsClient,
  ) {}

  get size(): number {
    return this.byChunk.size;
  }

  /** Loads what was saved; a missing, corrupt or foreign file is an empty index, never an error. */
  async load(): Promise<void> {
    let parsed;
    try {
      const raw = await readRegularFile(path.join(this.indexDir, VECTORS_FILE_NAME), "utf8");
      parsed = fileSchema.safeParse(JSON.parse(raw));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const saved = parsed.data;
    if (saved.model !== this.client.model || saved.endpoint !== this.client.endpoint) return;
    const files = new Map<string, FileVectors>();
    for (const [file, entry] of Object.entries(saved.files)) {
      const vectors = entry.vectors.map(decodeVector);
      if (vectors.some((vector) => vector?.length !== saved.dimensions)) return;
      files.set(file, { hash: entry.hash, vectors: vectors as Float32Array[] });
    }
    this.files = files;
    this.dimensions = saved.dimensions;
  }

  /**
   * Embeds the passages of every file whose hash changed since its vectors were made, forgets
   * files no longer indexed, and saves. Throws EmbeddingsError when the endpoint fails or lies.
   */
  async sync(index: ChunkIndex, hashOf: (file: string) => string | undefined): Promise<void> {
    let changed = false;
    const live = new Set(index.paths());
    for (const file of [...this.files.keys()]) {
      if (!live.has(file)) {
        this.files.delete(file);
        changed = true;
      }
    }
    const pending: Array<{ file: string; hash: string; texts: string[] }> = [];
    for (const file of live) {
      const hash = hashOf(file);
      const ids = index.chunkIds(file);
      const saved = this.files.get(file);
      if (hash === undefined || (saved?.hash === hash && saved.vectors.length === ids.length)) continue;
      pending.push({ file, hash, texts: ids.map((id) => embeddingText(index, id)) });
    }
    const texts = pending.flatMap((entry) => entry.texts);
    const vectors: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      const batch = await this.client.embed(texts.slice(i, i + BATCH), this.dimensions);
      this.dimensions ??= batch[0]?.length;
      vectors.push(...batch);
    }
    let offset = 0;
    for (const entry of pending) {
      this.files.set(entry.file, {
        hash: entry.hash,
        vectors: vectors.slice(offset, offset + entry.texts.length),
      });
      offset += entry.texts.length;
      changed = true;
    }
    this.byChunk = new Map();
    for (const file of live) {
      const saved = this.files.get(file);
      const ids = index.chunkIds(file);
      if (!saved || saved.vectors.length !== ids.length) continue;
      ids.forEach((id, i) => {
        const vector = saved.vectors[i];
        if (vector) this.byChunk.set(id, vector);
      });
    }
    if (changed) await this.save();
  }

  /** Chunk ids by similarity to `query` (a unit vector), best first, down to `minSimilarity`. */
  nearest(
    query: Float32Array,
    limit: number,
    minSimilarity: number,
  ): Array<{ id: number; similarity: number }> {
    const found: Array<{ id: number; similarity: number }> = [];
    for (const [id, vector] of this.byChunk) {
      if (vector.length !== query.length) continue;
      let dot = 0;
      for (let i = 0; i < vector.length; i++) dot += (vector[i] ?? 0) * (query[i] ?? 0);
      if (dot >= minSimilarity) found.push({ id, similarity: dot });
    }
    return found.sort((a, b) => b.similarity - a.similarity).slice(0, limit);
  }

  get expectedDimensions(): number | undefined {
    return this.dimensions;
  }

  private async save(): Promise<void> {
    const files: Record<string, { hash: string; vectors: string[] }> = {};
    for (const [file, entry] of this.files)
      files[file] = { hash: entry.hash, vectors: entry.vectors.map(encodeVector) };
    const body = JSON.stringify({
      format: "mcpterm-kb-vectors",
      version: FORMAT_VERSION,
      model: this.client.model,
      endpoint: this.client.endpoint,
      dimensions: this.dimensions ?? 1,
      files,
    });
    try {
      await writeAtomically(path.join(this.indexDir, VECTORS_FILE_NAME), body);
    } catch (error) {
      // Vectors that cannot be kept are a reason to search by keywords, not to lose the knowledge base.
      const code = (error as { code?: unknown }).code;
      throw new EmbeddingsError(
        `the vectors could not be saved in ${this.indexDir} (${String(code ?? error)})`,
      );
    }
  }
}

/** What is embedded for a passage: its heading path, then its text. */
function embeddingText(index: ChunkIndex, id: number): string {
  const chunk = index.chunk(id);
  if (!chunk) return "";
  return chunk.heading ? `${chunk.heading}\n\n${chunk.text}` : chunk.text;
}

function encodeVector(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64");
}

function decodeVector(text: string): Float32Array | undefined {
  const bytes = Buffer.from(text, "base64");
  if (bytes.byteLength % 4 !== 0) return undefined;
  const vector = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(vector.buffer).set(bytes);
  return vector.every(Number.isFinite) ? vector : undefined;
}
