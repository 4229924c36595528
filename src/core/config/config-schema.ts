import path from "node:path";
import { ConfigFieldReader, describeJsonValue, isJsonObject, type JsonObject } from "./config-fields.js";
import { APPROVAL_KEYS, KB_KEYS, MODEL_KEYS, TOP_LEVEL_KEYS } from "./config-keys.js";
import { emptyConfig, type McptermConfig } from "./config-types.js";
import { isInsideFolder } from "./inside-folder.js";
import { parseServerConfig } from "./server-schema.js";
import { unknownKeySentences, type KeyRule } from "./unknown-keys.js";

export interface ConfigParseContext {
  /** How messages name the file, e.g. "mcp.config.json". */
  fileLabel: string;
  /** Folder of the config file; relative paths inside it are taken from here. */
  configDir: string;
  env: NodeJS.ProcessEnv;
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
  }

  const model = reader.optionalObject(document, "model", "");
  if (model) {
    warnUnknown(model, "model", MODEL_KEYS);
    const name = reader.optionalString(model, "name", "model");
    const baseUrl = reader.optionalString(model, "baseUrl", "model");
    if (name !== undefined) config.model.name = name;
    if (baseUrl !== undefined) config.model.baseUrl = baseUrl;
    const idle = reader.optionalPositiveInteger(model, "idleTimeoutMs", "model");
    const firstToken = reader.optionalPositiveInteger(model, "firstTokenTimeoutMs", "model");
    if (idle !== undefined) config.model.idleTimeoutMs = idle;
    if (firstToken !== undefined) config.model.firstTokenTimeoutMs = firstToken;
  }
  config.warnings = reader.warnings;
  return config;
}
