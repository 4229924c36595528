import type { EmbeddingsSettings } from "../config/index.js";
import { EndpointConnectionError, EndpointTimeoutError, sendToEndpoint } from "../llm/endpoint-http.js";
import { endpointLabel, endpointUrl } from "../llm/endpoint-label.js";

/** Vectors longer than this are not an embedding: a lying endpoint would fill memory with them. */
export const MAX_DIMENSIONS = 8192;
/** A response body larger than this is cut off and refused, whatever the endpoint claims. */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;

export interface EmbeddingsClientOptions extends EmbeddingsSettings {
  /** A request that has not answered completely by then is abandoned (default 30 s). */
  timeoutMs?: number;
}

/** Why the endpoint could not be used, in one sentence without the key in it. */
export class EmbeddingsError extends Error {}

/**
 * Calls an OpenAI-compatible POST <baseUrl>/embeddings and checks what comes back: one vector per
 * input, all of the same length, finite numbers, within size and time limits. Anything else is
 * an EmbeddingsError, so the caller can fall back to keyword search.
 */
export class EmbeddingsClient {
  private readonly url: string;
  /** Where the vectors come from, for messages and the saved index: the URL without credentials or query. */
  readonly endpoint: string;

  constructor(private readonly options: EmbeddingsClientOptions) {
    this.url = endpointUrl(options.baseUrl, "/embeddings");
    this.endpoint = endpointLabel(this.url);
  }

  get model(): string {
    return this.options.model;
  }

  async embed(inputs: readonly string[], expectedDimensions?: number): Promise<Float32Array[]> {
    if (inputs.length === 0) return [];
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    // One limit for the whole exchange. Over node:http, not fetch, which would cost a search
    // about 35 ms to load; a redirect is not followed (the key would go with it).
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signal = AbortSignal.timeout(timeoutMs);
    let response: Awaited<ReturnType<typeof sendToEndpoint>>;
    try {
      response = await sendToEndpoint({
        url: this.url,
        method: "POST",
        headers,
        body: JSON.stringify({ model: this.options.model, input: inputs, encoding_format: "float" }),
        signal,
        timeoutMs,
      });
    } catch (error) {
      throw new EmbeddingsError(`${this.endpoint} could not be reached (${describeFailure(error)})`);
    }
    try {
      if (!response.ok) throw new EmbeddingsError(`${this.endpoint} answered HTTP ${response.status}`);
      let text: string | undefined;
      try {
        text = await response.readAll(MAX_RESPONSE_BYTES);
      } catch (error) {
        const why = signal.aborted ? "it stopped answering" : describeFailure(error);
        throw new EmbeddingsError(`${this.endpoint} did not finish its answer (${why})`);
      }
      if (text === undefined)
        throw new EmbeddingsError(`${this.endpoint} sent more than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB`);
      return parseVectors(text, inputs.length, expectedDimensions, this.endpoint);
    } finally {
      response.close();
    }
  }
}

/** Checks an /embeddings answer: `data[i].embedding` for every input, same length, finite. */
export function parseVectors(
  text: string,
  count: number,
  expectedDimensions: number | undefined,
  endpoint: string,
): Float32Array[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new EmbeddingsError(`${endpoint} did not answer with JSON`);
  }
  const data = (json as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== count) {
    throw new EmbeddingsError(
      `${endpoint} returned ${Array.isArray(data) ? data.length : "no"} vectors for ${count} inputs`,
    );
  }
  const vectors: Float32Array[] = new Array<Float32Array>(count);
  let dimensions = expectedDimensions;
  data.forEach((item: unknown, position) => {
    const entry = item as { embedding?: unknown; index?: unknown } | null;
    const index = typeof entry?.index === "number" ? entry.index : position;
    const embedding = entry?.embedding;
    if (!Number.isInteger(index) || index < 0 || index >= count || vectors[index] !== undefined) {
      throw new EmbeddingsError(`${endpoint} returned vectors with bad or repeated indexes`);
    }
    if (!Array.isArray(embedding) || embedding.length === 0 || embedding.length > MAX_DIMENSIONS) {
      throw new EmbeddingsError(
        `${endpoint} returned a vector that is not a list of 1 to ${MAX_DIMENSIONS} numbers`,
      );
    }
    dimensions ??= embedding.length;
    if (embedding.length !== dimensions) {
      throw new EmbeddingsError(
        `${endpoint} returned vectors of ${embedding.length} dimensions, expected ${dimensions}`,
      );
    }
    vectors[index] = normalize(embedding, endpoint);
  });
  return vectors;
}

/** To unit length, so similarity is a dot product; NaN, infinities and zero vectors are refused. */
function normalize(values: readonly unknown[], endpoint: string): Float32Array {
  const vector = new Float32Array(values.length);
  let norm = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new EmbeddingsError(`${endpoint} returned a vector with a value that is not a finite number`);
    }
    vector[i] = value;
    norm += value * value;
  }
  if (!(norm > 0) || !Number.isFinite(norm)) throw new EmbeddingsError(`${endpoint} returned a zero vector`);
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] ?? 0) * scale;
  return vector;
}

function describeFailure(error: unknown): string {
  if (error instanceof EndpointTimeoutError) return "timed out";
  if (error instanceof Error && error.name === "AbortError") return "timed out";
  if (error instanceof EndpointConnectionError) return error.code ?? "network error";
  return "network error";
}
