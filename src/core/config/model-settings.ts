import { isDecimalNumber } from "../text/decimal-number.js";
import { MAX_SILENCE_TIMEOUT_MS } from "../llm/stream-watchdog.js";
import type { ModelSettings } from "../llm/types.js";
import { ConfigError } from "../errors.js";
import type { McptermConfig } from "./config-types.js";
import { TEMPERATURE_RANGE } from "./config-schema.js";
import { isHttpUrl } from "./http-url.js";
import { endpointCredentialsSentence, hasUrlCredentials } from "./url-credentials.js";

export interface ModelSettingsInput {
  flags: {
    model?: string;
    baseUrl?: string;
    apiKey?: string;
    contextWindow?: number;
    temperature?: number;
    maxTokens?: number;
  };
  env: NodeJS.ProcessEnv;
  config: McptermConfig;
}

/** The settings, and where the endpoint and the key came from (for trust and for messages). */
export interface ResolvedModelSettings extends ModelSettings {
  /** Set when the base URL was taken from the project's config file, not the user's flags or env. */
  baseUrlFromConfig: boolean;
  /** How to name where the API key came from ("--api-key", "OPENAI_API_KEY", …), if one is set. */
  apiKeySource: string | undefined;
}

interface Sourced {
  value: string;
  /** How the error message names where the value came from: "--base-url", "OPENAI_BASE_URL", … */
  source: string;
}

/**
 * Picks model, base URL, API key and the stream's silence limits with the precedence flags > environment > config file.
 * ARK_* (Volcengine Ark) variables are accepted as aliases, and OPENAI_* wins when both are set.
 * Throws `ConfigError` when the result cannot reach any model.
 */
export function resolveModelSettings(input: ModelSettingsInput): ResolvedModelSettings {
  const { flags, env, config } = input;
  const configLabel = config.path ?? "mcp.config.json";

  const model = firstSet([
    { value: flags.model, source: "--model" },
    { value: env.MCPTERM_MODEL, source: "MCPTERM_MODEL" },
    { value: config.model.name, source: `${configLabel}: model.name` },
  ]);
  if (model === undefined) {
    throw new ConfigError(
      "No model is set; pass --model <name> or set MCPTERM_MODEL (or model.name in mcp.config.json), " +
        "and point --base-url or OPENAI_BASE_URL at any OpenAI-compatible endpoint, " +
        "local ones such as Ollama, llama.cpp or vLLM included.",
    );
  }

  const configBaseUrl = `${configLabel}: model.baseUrl`;
  const baseUrl = firstSet([
    { value: flags.baseUrl, source: "--base-url" },
    { value: env.OPENAI_BASE_URL, source: "OPENAI_BASE_URL" },
    { value: env.ARK_BASE_URL, source: "ARK_BASE_URL" },
    { value: config.model.baseUrl, source: configBaseUrl },
  ]);
  if (baseUrl !== undefined && !isHttpUrl(baseUrl.value)) {
    throw new ConfigError(
      `${baseUrl.source} must be an http(s) URL such as http://localhost:11434/v1, got ${JSON.stringify(baseUrl.value)}.`,
    );
  }
  if (baseUrl !== undefined && hasUrlCredentials(baseUrl.value))
    throw new ConfigError(`${endpointCredentialsSentence(baseUrl.source, "OPENAI_API_KEY or --api-key")}.`);

  const apiKey = firstSet([
    { value: flags.apiKey, source: "--api-key" },
    { value: env.OPENAI_API_KEY, source: "OPENAI_API_KEY" },
    { value: env.ARK_API_KEY, source: "ARK_API_KEY" },
  ]);
  // What Node's HTTP client refuses in a header (a line break, a curly quote from a copied key).
  if (apiKey !== undefined && /[^\t\x20-\x7e\x80-\xff]/.test(apiKey.value)) {
    throw new ConfigError(
      `${apiKey.source} holds a character an HTTP header cannot carry (a line break, a control character or a letter such as a curly quote); copy the key again from its provider.`,
    );
  }
  if (baseUrl === undefined && apiKey === undefined) {
    throw new ConfigError(
      "No API key is set for api.openai.com; set OPENAI_API_KEY (or ARK_API_KEY) or pass --api-key, " +
        "or point --base-url or OPENAI_BASE_URL at another OpenAI-compatible endpoint " +
        "such as a local Ollama, llama.cpp or vLLM server, where a key is optional.",
    );
  }

  const idleTimeoutMs = silenceLimit([
    { value: env.MCPTERM_MODEL_IDLE_TIMEOUT_MS, source: "MCPTERM_MODEL_IDLE_TIMEOUT_MS" },
    { value: config.model.idleTimeoutMs, source: `${configLabel}: model.idleTimeoutMs` },
  ]);
  const firstTokenTimeoutMs = silenceLimit([
    { value: env.MCPTERM_MODEL_FIRST_TOKEN_TIMEOUT_MS, source: "MCPTERM_MODEL_FIRST_TOKEN_TIMEOUT_MS" },
    { value: config.model.firstTokenTimeoutMs, source: `${configLabel}: model.firstTokenTimeoutMs` },
  ]);

  const contextWindow = wholeNumber(
    [
      { value: flags.contextWindow, source: "--context-window" },
      { value: env.MCPTERM_CONTEXT_WINDOW, source: "MCPTERM_CONTEXT_WINDOW" },
      { value: config.model.contextWindow, source: `${configLabel}: model.contextWindow` },
    ],
    MIN_CONTEXT_WINDOW,
  );
  const maxTokens = wholeNumber([
    { value: flags.maxTokens, source: "--max-tokens" },
    { value: env.MCPTERM_MAX_TOKENS, source: "MCPTERM_MAX_TOKENS" },
    { value: config.model.maxTokens, source: `${configLabel}: model.maxTokens` },
  ]);
  if (contextWindow !== undefined && maxTokens !== undefined && maxTokens >= contextWindow) {
    throw new ConfigError(
      `The answer limit (maxTokens ${maxTokens}) must be smaller than the context window (${contextWindow} tokens), which holds the prompt too; lower --max-tokens or MCPTERM_MAX_TOKENS (model.maxTokens).`,
    );
  }
  const temperature = temperatureOf([
    { value: flags.temperature, source: "--temperature" },
    { value: env.MCPTERM_TEMPERATURE, source: "MCPTERM_TEMPERATURE" },
    { value: config.model.temperature, source: `${configLabel}: model.temperature` },
  ]);

  return {
    model: model.value,
    baseUrl: baseUrl?.value,
    apiKey: apiKey?.value,
    baseUrlFromConfig: baseUrl?.source === configBaseUrl,
    apiKeySource: apiKey?.source,
    sources: {
      model: model.source,
      ...(baseUrl === undefined ? {} : { baseUrl: baseUrl.source }),
      ...(apiKey === undefined ? {} : { apiKey: apiKey.source }),
    },
    ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
    ...(firstTokenTimeoutMs === undefined ? {} : { firstTokenTimeoutMs }),
    ...(contextWindow === undefined ? {} : { contextWindow }),
    ...(maxTokens === undefined ? {} : { maxTokens }),
    ...(temperature === undefined ? {} : { temperature }),
  };
}

type Candidate = { value: string | number | undefined; source: string };

/** The first value set, as text (environment) or a number (flags, config). */
function firstValue(candidates: Candidate[]): { value: number; text: string; source: string } | undefined {
  for (const { value, source } of candidates) {
    const text = typeof value === "string" ? value.trim() : value;
    if (text === undefined || text === "") continue;
    const number = typeof text === "number" ? text : isDecimalNumber(text) ? Number(text) : Number.NaN;
    return { value: number, text: String(value), source };
  }
  return undefined;
}

/**
 * A window smaller than this holds no system prompt and question at once: the system prompt
 * alone is about 560 tokens, and a window it fills could never be sent a request.
 */
const MIN_CONTEXT_WINDOW = 1024;

/** A token count (a context window, an answer limit) from 1 up. */
function wholeNumber(candidates: Candidate[], min = 1): number | undefined {
  const found = firstValue(candidates);
  if (found === undefined) return undefined;
  if (!Number.isInteger(found.value) || found.value < min || found.value > 100_000_000) {
    const least = min > 1 ? ` of at least ${min}` : "";
    throw new ConfigError(
      `${found.source} must be a whole number of tokens${least} such as 8192, got ${JSON.stringify(found.text)}.`,
    );
  }
  return found.value;
}

function temperatureOf(candidates: Candidate[]): number | undefined {
  const found = firstValue(candidates);
  if (found === undefined) return undefined;
  const { min, max } = TEMPERATURE_RANGE;
  if (!Number.isFinite(found.value) || found.value < min || found.value > max) {
    throw new ConfigError(
      `${found.source} must be a number from ${min} to ${max} such as 0.2, got ${JSON.stringify(found.text)}.`,
    );
  }
  return found.value;
}

/**
 * The first limit set, in milliseconds. Environment values are text; config values were already
 * read as positive whole numbers. Five minutes of silence is a server that is gone, whatever it is doing.
 */
function silenceLimit(
  candidates: { value: string | number | undefined; source: string }[],
): number | undefined {
  for (const { value, source } of candidates) {
    const text = typeof value === "string" ? value.trim() : value;
    if (text === undefined || text === "") continue;
    const ms = typeof text === "number" ? text : /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isInteger(ms) || ms < 1 || ms > MAX_SILENCE_TIMEOUT_MS) {
      throw new ConfigError(
        `${source} must be a whole number of milliseconds from 1 to ${MAX_SILENCE_TIMEOUT_MS} (five minutes of silence is a stream that is gone), got ${JSON.stringify(value)}.`,
      );
    }
    return ms;
  }
  return undefined;
}

/** The first candidate with text in it; blank values count as unset so `VAR=` does not win. */
function firstSet(candidates: { value: string | undefined; source: string }[]): Sourced | undefined {
  for (const { value, source } of candidates) {
    const trimmed = value?.trim();
    if (trimmed) return { value: trimmed, source };
  }
  return undefined;
}
