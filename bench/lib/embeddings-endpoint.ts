import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { SentenceEncoder } from "./sentence-encoder.js";

/** Texts the model is given at once: its memory grows with the longest batch. */
const MODEL_BATCH = 16;

export interface EmbeddingsEndpoint {
  /** The base URL to configure as kb.embeddings.baseUrl, e.g. http://127.0.0.1:PORT/v1. */
  baseUrl: string;
  /** Texts embedded by the model in this run (not found in the cache). */
  readonly computed: number;
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible POST /v1/embeddings on 127.0.0.1 serving `encoder`. Every vector is kept
 * in `cacheFile` (one "sha256 <tab> base64 float32" line each, appended as made), so a rerun of
 * the evaluation embeds nothing it has embedded before, whatever changed in the index.
 */
export async function startEmbeddingsEndpoint(
  encoder: SentenceEncoder,
  cacheFile: string,
  port = 0,
): Promise<EmbeddingsEndpoint> {
  const cache = readCache(cacheFile);
  mkdirSync(path.dirname(cacheFile), { recursive: true });
  let computed = 0;
  // One request at a time: TensorFlow.js on the CPU gains nothing from overlapping batches.
  let queue: Promise<unknown> = Promise.resolve();

  const embedAll = async (inputs: string[]): Promise<number[][]> => {
    const keys = inputs.map(textKey);
    const missing = [...new Set(keys.filter((key) => !cache.has(key)))];
    const textOf = new Map(keys.map((key, i) => [key, inputs[i] ?? ""]));
    for (let i = 0; i < missing.length; i += MODEL_BATCH) {
      const batch = missing.slice(i, i + MODEL_BATCH);
      const vectors = await encoder.embed(batch.map((key) => textOf.get(key) ?? ""));
      batch.forEach((key, j) => {
        const vector = Float32Array.from(vectors[j] ?? []);
        cache.set(key, vector);
        appendFileSync(cacheFile, `${key}\t${Buffer.from(vector.buffer).toString("base64")}\n`);
      });
      computed += batch.length;
    }
    return keys.map((key) => Array.from(cache.get(key) ?? []));
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const answer = (status: number, body: unknown): void => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      if (request.method !== "POST" || !request.url?.endsWith("/embeddings")) {
        answer(404, { error: { message: "POST /v1/embeddings only" } });
        return;
      }
      let inputs: string[];
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { input?: unknown };
        inputs = typeof body.input === "string" ? [body.input] : (body.input as string[]);
        if (!Array.isArray(inputs) || !inputs.every((input) => typeof input === "string")) throw new Error();
      } catch {
        answer(400, { error: { message: "input must be a string or a list of strings" } });
        return;
      }
      const run = queue.then(() => embedAll(inputs));
      queue = run.catch(() => undefined);
      run.then(
        (vectors) =>
          answer(200, {
            object: "list",
            data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
          }),
        (error: unknown) => answer(500, { error: { message: String(error) } }),
      );
    });
  });
  // The client keeps its connection between batches; closing it idle after Node's 5 s default
  // races the next request (ECONNRESET), and a loaded machine is slow to send it.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${address.port}/v1`,
    get computed() {
      return computed;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function textKey(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function readCache(file: string): Map<string, Float32Array> {
  const cache = new Map<string, Float32Array>();
  if (!existsSync(file)) return cache;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const [key, encoded] = line.split("\t");
    if (!key || !encoded) continue;
    const bytes = Buffer.from(encoded, "base64");
    // A line cut short by an interrupted run is dropped and embedded again.
    if (bytes.byteLength === 0 || bytes.byteLength % 4 !== 0) continue;
    const vector = new Float32Array(bytes.byteLength / 4);
    new Uint8Array(vector.buffer).set(bytes);
    cache.set(key, vector);
  }
  return cache;
}
