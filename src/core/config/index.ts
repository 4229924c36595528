export type {
  EmbeddingsConfig,
  McptermConfig,
  ProtocolSetting,
  ServerConfig,
  ServerTransport,
} from "./config-types.js";
export { PROTOCOL_SETTINGS } from "./config-types.js";
export { withProtocol } from "./pin-protocol.js";
export {
  resolveEmbeddingsSettings,
  type EmbeddingsResolution,
  type EmbeddingsSettings,
} from "./embeddings-settings.js";
export {
  DEFAULT_AUTO_APPROVED_TIERS,
  DEFAULT_CONFIG_FILE,
  DEFAULT_KB_TOP_K,
  DEFAULT_MAX_CALL_MS,
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  emptyConfig,
} from "./config-types.js";
export { expandEnv, type EnvExpansion } from "./expand-env.js";
export { isInsideFolder, isWithinPath } from "./inside-folder.js";
export { loadConfig, type LoadConfigOptions } from "./load-config.js";
export {
  resolveModelSettings,
  type ModelSettingsInput,
  type ResolvedModelSettings,
} from "./model-settings.js";
export { serverEnvironment } from "./server-environment.js";
