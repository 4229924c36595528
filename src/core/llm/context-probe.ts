/**
 * Asks an OpenAI-compatible endpoint how long a context its model takes. Nothing here is
 * standard: each local server reports it its own way, so each field read is named below.
 * Every probe is one GET bounded in time (3 s) and size (1 MB); a server that says nothing
 * (api.openai.com) gets the default.
 */
import { sendToEndpoint } from "./endpoint-http.js";
import { endpointUrl } from "./endpoint-label.js";
import type { ContextWindow } from "./types.js";

/** The window assumed when neither the config nor the server says: documented in the README. */
export const DEFAULT_CONTEXT_WINDOW = 32_768;
const PROBE_TIMEOUT_MS = 3_000;
/** A model listing is a few kilobytes; a body past this is not one, and is not read to its end. */
const PROBE_MAX_BYTES = 1_000_000;

export interface ProbeTarget {
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
}

type Json = Record<string, unknown>;

const NOT_REPORTED: ContextWindow = {
  tokens: DEFAULT_CONTEXT_WINDOW,
  source: "default",
  detail: "as the endpoint does not report it (set model.contextWindow)",
};

/** The window the endpoint reports for `model`, or the default. Never throws. */
export async function probeContextWindow(target: ProbeTarget): Promise<ContextWindow> {
  return (await askContextWindow(target)).window;
}

/**
 * probeContextWindow, saying also whether the endpoint answered: a window it reported, or that
 * it reports none, is worth remembering; the default after a timeout or a refused connection is not.
 */
export async function askContextWindow(
  target: ProbeTarget,
): Promise<{ window: ContextWindow; answered: boolean }> {
  try {
    return { window: (await fromServer(target)) ?? NOT_REPORTED, answered: true };
  } catch {
    return { window: NOT_REPORTED, answered: false };
  }
}

async function fromServer(target: ProbeTarget): Promise<ContextWindow | undefined> {
  const origin = new URL(target.baseUrl).origin;
  // The listing must come back whole for the answer to count (and be remembered): a 503 while a
  // local server loads its model, or a 401 for a wrong key, says nothing about the window.
  const listing = await getJson(target, endpointUrl(target.baseUrl, "/models"), true, true);
  const entries = Array.isArray(listing?.data) ? listing.data.filter(isObject) : [];
  const entry =
    entries.find((item) => item.id === target.model) ?? (entries.length === 1 ? entries[0] : undefined);
  const server = (tokens: number, detail: string): ContextWindow => ({ tokens, source: "server", detail });

  const meta = isObject(entry?.meta) ? entry.meta : undefined;
  if (meta) {
    // llama.cpp: meta.n_ctx_train is what the model was trained for; the window the server runs
    // with (-c) is n_ctx in /props, and it is the one a request must fit.
    const props = await getJson(target, `${origin}/props`, false).catch(() => undefined);
    const settings = isObject(props?.default_generation_settings) ? props.default_generation_settings : {};
    const running = positive(settings.n_ctx) ?? positive(props?.n_ctx) ?? positive(meta.n_ctx);
    if (running) return server(running, "llama.cpp GET /props (n_ctx)");
    const trained = positive(meta.n_ctx_train);
    if (trained) return server(trained, "llama.cpp GET /v1/models (meta.n_ctx_train)");
  }
  // vLLM: the ModelCard's max_model_len.
  const vllm = positive(entry?.max_model_len);
  if (vllm) return server(vllm, "GET /v1/models (max_model_len)");
  // Other servers that put it on the model entry itself.
  for (const key of ["loaded_context_length", "context_length", "context_window", "max_context_length"]) {
    const tokens = positive(entry?.[key]);
    if (tokens) return server(tokens, `GET /v1/models (${key})`);
  }
  if (entry?.owned_by === "organization_owner") return lmStudio(target, origin, server);
  if (entry?.owned_by === "library" || entry?.owned_by === "ollama") return ollama(target, origin, server);
  return undefined;
}

/** LM Studio: its own REST API has the loaded window (loaded_context_length) and the model's most. */
async function lmStudio(
  target: ProbeTarget,
  origin: string,
  server: (tokens: number, detail: string) => ContextWindow,
): Promise<ContextWindow | undefined> {
  const model = await getJson(target, `${origin}/api/v0/models/${encodeURIComponent(target.model)}`, false);
  const loaded = positive(model?.loaded_context_length);
  if (loaded) return server(loaded, "LM Studio GET /api/v0/models (loaded_context_length)");
  const most = positive(model?.max_context_length);
  return most ? server(most, "LM Studio GET /api/v0/models (max_context_length)") : undefined;
}

/**
 * Ollama: `/api/ps` says what window a loaded model runs with (context_length). The model's own
 * maximum (`/api/show`) is not used: Ollama runs with less and cuts a longer prompt silently.
 */
async function ollama(
  target: ProbeTarget,
  origin: string,
  server: (tokens: number, detail: string) => ContextWindow,
): Promise<ContextWindow | undefined> {
  const running = await getJson(target, `${origin}/api/ps`, false);
  const models = Array.isArray(running?.models) ? running.models.filter(isObject) : [];
  const model = models.find((item) => item.name === target.model || item.model === target.model);
  const tokens = positive(model?.context_length);
  return tokens ? server(tokens, "Ollama GET /api/ps (context_length)") : undefined;
}

/** The key goes only where chat requests go (the base URL), never to the server's other paths. */
async function getJson(
  target: ProbeTarget,
  url: string,
  withKey: boolean,
  required = false,
): Promise<Json | undefined> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (withKey && target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
  // One limit for the whole exchange, the body included. A redirect is not followed (the key
  // would go with it): it answers nothing.
  const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  const response = await sendToEndpoint({ url, method: "GET", headers, signal, timeoutMs: PROBE_TIMEOUT_MS });
  try {
    if (!response.ok) {
      if (required) throw new Error(`${url} answered HTTP ${response.status}`);
      return undefined;
    }
    const text = await response.readAll(PROBE_MAX_BYTES);
    if (text === undefined) {
      if (required) throw new Error(`${url} answered more than ${PROBE_MAX_BYTES} bytes`);
      return undefined;
    }
    const body: unknown = JSON.parse(text);
    return isObject(body) ? body : undefined;
  } finally {
    response.close();
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A window worth believing: a whole number of tokens, not a placeholder such as 0 or -1. */
function positive(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 256 && value <= 100_000_000
    ? value
    : undefined;
}
