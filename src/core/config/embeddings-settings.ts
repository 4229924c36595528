import { isHttpUrl, isLoopbackHost } from "./http-url.js";
import { endpointCredentialsSentence, hasUrlCredentials } from "./url-credentials.js";
import type { McptermConfig } from "./config-types.js";

/** What the knowledge base needs to reach an embeddings endpoint. */
export interface EmbeddingsSettings {
  model: string;
  baseUrl: string;
  apiKey: string | undefined;
}

export interface EmbeddingsResolution {
  settings: EmbeddingsSettings | undefined;
  /** Why a configured endpoint is not used, one sentence; shown once, never fatal. */
  warning: string | undefined;
}

/**
 * The embeddings endpoint: MCPTERM_EMBEDDINGS_MODEL / MCPTERM_EMBEDDINGS_BASE_URL (the person's
 * own choice) over kb.embeddings in the config. An endpoint receives every message and every
 * note, so one that a project's config names off this machine is used only when the person
 * trusted it (`trusted`: --trust-config, or a yes to the trust question that showed it, see
 * embeddingsNeedingTrust); on localhost (Ollama, llama.cpp, vLLM) it is used as is.
 *
 * The key: MCPTERM_EMBEDDINGS_API_KEY goes to whatever endpoint is in use; the chat model's key
 * (OPENAI_API_KEY, ARK_API_KEY) only to its own service, so a config cannot have it sent to a
 * server of its choosing.
 */
export function resolveEmbeddingsSettings(
  config: McptermConfig,
  env: NodeJS.ProcessEnv,
  trusted: boolean,
): EmbeddingsResolution {
  const envModel = env.MCPTERM_EMBEDDINGS_MODEL?.trim();
  const envUrl = env.MCPTERM_EMBEDDINGS_BASE_URL?.trim();
  const model = envModel || config.kb.embeddings?.model;
  const baseUrl = envUrl || config.kb.embeddings?.baseUrl;
  if (!model || !baseUrl) return { settings: undefined, warning: undefined };
  if (!isHttpUrl(baseUrl)) {
    return {
      settings: undefined,
      warning: `MCPTERM_EMBEDDINGS_BASE_URL must be an http(s) URL such as http://localhost:11434/v1, got ${JSON.stringify(baseUrl)}; the knowledge base searches by keywords only.`,
    };
  }
  if (hasUrlCredentials(baseUrl)) {
    const source = envUrl ? "MCPTERM_EMBEDDINGS_BASE_URL" : "kb.embeddings.baseUrl";
    return {
      settings: undefined,
      warning: `${endpointCredentialsSentence(source, "MCPTERM_EMBEDDINGS_API_KEY")}; the knowledge base searches by keywords only.`,
    };
  }
  if (!envUrl && !trusted && !isLoopbackHost(new URL(baseUrl).hostname)) {
    return {
      settings: undefined,
      warning: `Not sending your messages and notes to ${new URL(baseUrl).origin}: kb.embeddings.baseUrl in ${config.path ?? "the config"} names a server off this machine, and the config is not trusted with it; pass --trust-config (or say yes when a session asks about the config), or set MCPTERM_EMBEDDINGS_BASE_URL, to use it. The knowledge base searches by keywords only.`,
    };
  }
  const own = env.MCPTERM_EMBEDDINGS_API_KEY?.trim();
  return { settings: { model, baseUrl, apiKey: own || chatKeyFor(baseUrl, env) }, warning: undefined };
}

/**
 * The project's `kb.embeddings.baseUrl` when using it needs the person's trust: the config names
 * it (MCPTERM_EMBEDDINGS_BASE_URL does not override it), it would be used (a model is named), and
 * it is off this machine, where every message and note would go. The trust question shows it and
 * the trusted hash holds it (embeddingsOffMachine); trusted with the config, it is used.
 */
export function embeddingsNeedingTrust(config: McptermConfig, env: NodeJS.ProcessEnv): string | undefined {
  if (env.MCPTERM_EMBEDDINGS_BASE_URL?.trim()) return undefined;
  if (!(env.MCPTERM_EMBEDDINGS_MODEL?.trim() || config.kb.embeddings?.model)) return undefined;
  return embeddingsOffMachine(config);
}

/** The config's `kb.embeddings.baseUrl` when it is a usable URL of a server off this machine. */
export function embeddingsOffMachine(config: McptermConfig): string | undefined {
  const baseUrl = config.kb.embeddings?.baseUrl;
  if (!baseUrl || !isHttpUrl(baseUrl) || hasUrlCredentials(baseUrl)) return undefined;
  return isLoopbackHost(new URL(baseUrl).hostname) ? undefined : baseUrl;
}

function chatKeyFor(baseUrl: string, env: NodeJS.ProcessEnv): string | undefined {
  const origin = originOf(baseUrl);
  const candidates: Array<[string | undefined, string]> = [
    [env.OPENAI_API_KEY, env.OPENAI_BASE_URL?.trim() || "https://api.openai.com/v1"],
    [env.ARK_API_KEY, env.ARK_BASE_URL?.trim() || "https://ark.cn-beijing.volces.com/api/v3"],
  ];
  for (const [key, home] of candidates) {
    if (key?.trim() && origin !== undefined && originOf(home) === origin) return key.trim();
  }
  return undefined;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
