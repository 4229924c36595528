import path from "node:path";
import { ConfigFieldReader, describeJsonValue, isJsonObject, type JsonObject } from "./config-fields.js";
import {
  ANSWERS_KEYS,
  APPROVAL_KEYS,
  KB_EMBEDDINGS_KEYS,
  KB_KEYS,
  MODEL_KEYS,
  PRICING_KEYS,
  TOOL_SEARCH_KEYS,
  TOOLS_KEYS,
  TOP_LEVEL_KEYS,
} from "./config-keys.js";
import { emptyConfig, type McptermConfig, type ModelPricing } from "./config-types.js";
import { isHttpUrl } from "./http-url.js";
import { isInsideFolder } from "./inside-folder.js";
import { parseServerConfig } from "./server-schema.js";
import { TOOL_SEARCH_MODES, type ToolSearchSettings } from "./tool-search-settings.js";
import { unknownKeySentences, type KeyRule } from "./unknown-keys.js";

export interface ConfigParseContext {
  /** How messages name the file, e.g. "mcp.config.json". */
  fileLabel: string;
  /** Folder of the config file; relative paths inside it are taken from here. */
  configDir: string;
  env: NodeJS.ProcessEnv;
}

/** What OpenAI-compatible servers accept; the same range --temperature and MCPTERM_TEMPERATURE take. */
export const TEMPERATURE_RANGE = { min: 0, max: 2 } as const;
const PRICE_RANGE = { min: 0, max: 1_000_000 } as const;

function parsePricing(reader: ConfigFieldReader, pricing: JsonObject): ModelPricing {
  const at = "model.pricing";
  const input = reader.optionalNumber(pricing, "inputPerMillion", at, PRICE_RANGE);
  const output = reader.optionalNumber(pricing, "outputPerMillion", at, PRICE_RANGE);
  if (input === undefined || output === undefined) {
    reader.error(
      `${at} needs inputPerMillion and outputPerMillion, the prices of a million prompt and answer tokens.`,
    );
  }
  const cached = reader.optionalNumber(pricing, "cachedInputPerMillion", at, PRICE_RANGE);
  const currency = reader.optionalString(pricing, "currency", at) ?? "USD";
  return {
    inputPerMillion: input,
    outputPerMillion: output,
    ...(cached === undefined ? {} : { cachedInputPerMillion: cached }),
    currency,
  };
}

/** Keys of mcpterm's own `telemetry` block that gemini-cli's block of the same name does not have. */
const MCPTERM_TELEMETRY_KEYS = [
  "endpoint",
  "headers",
  "serviceName",
  "resourceAttributes",
  "captureContent",
  "exitFlushMs",
];

/**
 * A `telemetry` block written for mcpterm in a project's config would be read nowhere, silently:
 * only the person's own settings, the environment or the command line turn on export (a cloned
 * repository must not send their traces anywhere). gemini-cli's block of that name stays quiet.
 */
function projectTelemetrySentence(block: unknown): string | undefined {
  if (!isJsonObject(block) || !MCPTERM_TELEMETRY_KEYS.some((key) => key in block)) return undefined;
  return (
    '"telemetry" is not read from a project\'s config, so that a cloned repository cannot send your ' +
    "traces anywhere; put it in your own settings.json, or use OTEL_EXPORTER_OTLP_ENDPOINT or --otlp-endpoint."
  );
}

/**
 * Validates a parsed mcp.config.json. A known key with the wrong type throws `ConfigError`. Keys
 * mcpterm does not know are ignored with a warning (`config.warnings`), except those Claude
 * Desktop, Cursor or gemini-cli write into the same file, which load without a word.
 */
export function parseConfigDocument(document: unknown, context: ConfigParseContext): McptermConfig {
  // Annotated so TypeScript narrows `document` after `reader.error`, which never returns.
  const reader: ConfigFieldReader = new ConfigFieldReader(context.fileLabel);
  if (!isJsonObject(document)) {
    reader.error(`the top level must be a JSON object, got ${describeJsonValue(document)}.`);
  }
  const config = emptyConfig();
  const warnUnknown = (object: JsonObject, path: string, rule: KeyRule): void => {
    for (const sentence of unknownKeySentences(object, path, rule)) reader.warn(sentence);
  };
  warnUnknown(document, "", TOP_LEVEL_KEYS);
  const telemetryNote = projectTelemetrySentence(document.telemetry);
  if (telemetryNote) reader.warn(telemetryNote);

  const servers = reader.optionalObject(document, "mcpServers", "");
  for (const [name, value] of Object.entries(servers ?? {})) {
    config.servers.push(parseServerConfig(name, value, { ...context, reader }));
  }

  const approval = reader.optionalObject(document, "approval", "");
  if (approval) {
    warnUnknown(approval, "approval", APPROVAL_KEYS);
    const auto = reader.optionalTierArray(approval, "auto", "approval");
    if (auto !== undefined) config.approval = { auto, fromFile: true };
  }

  const kb = reader.optionalObject(document, "kb", "");
  if (kb) {
    warnUnknown(kb, "kb", KB_KEYS);
    const dir = reader.optionalString(kb, "dir", "kb");
    const resolved = dir === undefined ? undefined : path.resolve(context.configDir, dir);
    const outside = resolved !== undefined && !isInsideFolder(resolved, context.configDir);
    if (outside) {
      // A cloned project must not point the knowledge base (read, and quoted to the model) at
      // ~/.ssh or the rest of the disk; the person can, with --kb.
      reader.warn(
        `kb.dir "${dir}" points outside this file's folder, which a project's config may not do; mcpterm uses the default folder instead (pass --kb to use that one).`,
      );
    }
    config.kb = {
      enabled: reader.optionalBoolean(kb, "enabled", "kb") ?? config.kb.enabled,
      dir: outside ? undefined : resolved,
      topK: reader.optionalPositiveInteger(kb, "topK", "kb") ?? config.kb.topK,
    };
    const embeddings = reader.optionalObject(kb, "embeddings", "kb");
    if (embeddings) {
      warnUnknown(embeddings, "kb.embeddings", KB_EMBEDDINGS_KEYS);
      const model = reader.optionalString(embeddings, "model", "kb.embeddings")?.trim();
      const baseUrl = reader.optionalString(embeddings, "baseUrl", "kb.embeddings")?.trim();
      if (!model) {
        reader.error(
          `kb.embeddings.model must name the embedding model, e.g. "text-embedding-3-small" or "nomic-embed-text"; remove kb.embeddings to search by keywords only.`,
        );
      }
      if (!baseUrl || !isHttpUrl(baseUrl)) {
        reader.error(
          `kb.embeddings.baseUrl must be the http(s) URL of an OpenAI-compatible endpoint, such as http://localhost:11434/v1, got ${JSON.stringify(baseUrl ?? null)}.`,
        );
      }
      config.kb.embeddings = { model, baseUrl };
    }
  }

  const model = reader.optionalObject(document, "model", "");
  if (model) {
    warnUnknown(model, "model", MODEL_KEYS);
    const name = reader.optionalString(model, "name", "model");
    const baseUrl = reader.optionalString(model, "baseUrl", "model");
    if (name !== undefined) config.model.name = name;
    if (baseUrl !== undefined) config.model.baseUrl = baseUrl;
    const idle = reader.optionalMilliseconds(model, "idleTimeoutMs", "model");
    const firstToken = reader.optionalMilliseconds(model, "firstTokenTimeoutMs", "model");
    if (idle !== undefined) config.model.idleTimeoutMs = idle;
    if (firstToken !== undefined) config.model.firstTokenTimeoutMs = firstToken;
    const contextWindow = reader.optionalPositiveInteger(model, "contextWindow", "model");
    const temperature = reader.optionalNumber(model, "temperature", "model", TEMPERATURE_RANGE);
    const maxTokens = reader.optionalPositiveInteger(model, "maxTokens", "model");
    if (contextWindow !== undefined) config.model.contextWindow = contextWindow;
    if (temperature !== undefined) config.model.temperature = temperature;
    if (maxTokens !== undefined) config.model.maxTokens = maxTokens;
    const pricing = reader.optionalObject(model, "pricing", "model");
    if (pricing) {
      warnUnknown(pricing, "model.pricing", PRICING_KEYS);
      config.model.pricing = parsePricing(reader, pricing);
    }
  }

  const answers = reader.optionalObject(document, "answers", "");
  if (answers) {
    warnUnknown(answers, "answers", ANSWERS_KEYS);
    const confirmedInferred = reader.optionalBoolean(answers, "confirmedInferred", "answers");
    if (confirmedInferred !== undefined) config.answers.confirmedInferred = confirmedInferred;
  }
  const tools = reader.optionalObject(document, "tools", "");
  if (tools) {
    warnUnknown(tools, "tools", TOOLS_KEYS);
    const search = reader.optionalObject(tools, "search", "tools");
    if (search) {
      warnUnknown(search, "tools.search", TOOL_SEARCH_KEYS);
      config.tools.search = parseToolSearch(reader, search, config.tools.search);
    }
  }
  // A misspelt pin would pin nothing, silently; a misspelt tool is told once its server lists tools.
  for (const entry of config.tools.search.alwaysLoad) {
    const server = entry.split("/")[0] ?? entry;
    if (!config.servers.some((candidate) => candidate.name === server))
      reader.warn(
        `tools.search.alwaysLoad names "${entry}", but there is no server "${server}" here; it pins nothing.`,
      );
  }
  config.warnings = reader.warnings;
  return config;
}

function parseToolSearch(
  reader: ConfigFieldReader,
  search: JsonObject,
  defaults: ToolSearchSettings,
): ToolSearchSettings {
  const at = "tools.search";
  const mode =
    search.mode == null ? defaults.mode : reader.oneOf(search.mode, TOOL_SEARCH_MODES, `${at}.mode`);
  return {
    mode,
    windowShare: reader.optionalNumber(search, "windowShare", at, { min: 0, max: 1 }) ?? defaults.windowShare,
    maxTools: reader.optionalPositiveInteger(search, "maxTools", at) ?? defaults.maxTools,
    limit: reader.optionalPositiveInteger(search, "limit", at) ?? defaults.limit,
    alwaysLoad: reader.optionalStringArray(search, "alwaysLoad", at) ?? defaults.alwaysLoad,
  };
}
