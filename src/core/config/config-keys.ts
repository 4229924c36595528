import type { KeyRule } from "./unknown-keys.js";

/**
 * Which keys each part of mcp.config.json may hold. The lists of other clients' keys come from
 * their own documentation and schemas, so that a file they wrote loads without warnings.
 */
export const TOP_LEVEL_KEYS: KeyRule = {
  known: ["mcpServers", "approval", "kb", "model", "answers", "tools"],
  others: [
    "$schema",
    // Claude Desktop (claude_desktop_config.json).
    "globalShortcut",
    "preferences",
    // gemini-cli settings.json, current layout (schemas/settings.schema.json).
    ...["admin", "adminPolicyPaths", "advanced", "agents", "billing", "context", "contextManagement"],
    ...["experimental", "extensions", "general", "hooks", "hooksConfig", "ide", "mcp", "modelConfigs"],
    ...["output", "policyPaths", "privacy", "security", "skills", "telemetry", "ui"],
    "useWriteTodos",
    // gemini-cli settings.json, the flat layout it used until September 2025.
    ...["accessibility", "allowMCPServers", "allowedTools", "autoConfigureMaxOldSpaceSize", "bugCommand"],
    ...["chatCompression", "checkpointing", "contextFileName", "coreTools", "customThemes"],
    ...["debugKeystrokeLogging", "disableAutoUpdate", "disableUpdateNag", "dnsResolutionOrder"],
    ...["enablePromptCompletion", "excludeMCPServers", "excludeTools", "excludedProjectEnvVars"],
    ...["extensionManagement", "fileFiltering", "folderTrust", "folderTrustFeature"],
    ...["hasSeenIdeIntegrationNudge", "hideBanner", "hideFooter", "hideTips", "hideWindowTitle"],
    ...["ideMode", "ideModeFeature", "includeDirectories", "loadMemoryFromIncludeDirectories"],
    ...["maxSessionTurns", "mcpServerCommand", "memoryDiscoveryMaxDirs", "memoryImportFormat"],
    ...["preferredEditor", "sandbox", "selectedAuthType", "shouldUseNodePtyShell", "showLineNumbers"],
    ...["showMemoryUsage", "skipNextSpeakerCheck", "summarizeToolOutput", "theme", "toolCallCommand"],
    ...["toolDiscoveryCommand", "usageStatisticsEnabled", "useExternalAuth", "useRipgrep", "vimMode"],
  ],
};

/** Claude, Cursor, Claude Code and gemini-cli keys that mcpterm reads, then its own. */
export const SERVER_KEYS: KeyRule = {
  known: [
    ...["type", "command", "args", "env", "cwd", "url", "httpUrl", "headers", "timeout", "trust"],
    ...["includeTools", "excludeTools", "timeoutMs", "maxCallMs", "startupTimeoutMs", "disabled", "tiers"],
    "allowInsecureHttp",
    "roots",
    "oauth",
    "protocol",
    "alwaysLoad",
  ],
  // Clients add many keys of their own to a server entry (gemini-cli's description and oauth,
  // Cline's autoApprove, VS Code's envFile), so only a near miss of mcpterm's is reported.
  nearMissesOnly: true,
};

export const APPROVAL_KEYS: KeyRule = { known: ["auto"] };

export const KB_KEYS: KeyRule = { known: ["enabled", "dir", "topK", "embeddings"] };

export const KB_EMBEDDINGS_KEYS: KeyRule = { known: ["model", "baseUrl"] };

export const ANSWERS_KEYS: KeyRule = { known: ["confirmedInferred"] };

/** gemini-cli's settings.json has a `tools` section of its own; its keys load without a word. */
export const TOOLS_KEYS: KeyRule = {
  known: ["search"],
  others: [
    ...["sandbox", "shell", "autoAccept", "core", "allowed", "exclude", "discoveryCommand", "callCommand"],
    ...["useRipgrep", "enableToolOutputTruncation", "truncateToolOutputThreshold", "truncateToolOutputLines"],
    ...["enableMessageBusIntegration", "enableHooks", "usePty", "disableLLMCorrection"],
  ],
};

export const TOOL_SEARCH_KEYS: KeyRule = {
  known: ["mode", "windowShare", "maxTools", "limit", "alwaysLoad"],
};

export const MODEL_KEYS: KeyRule = {
  known: [
    ...["name", "baseUrl", "idleTimeoutMs", "firstTokenTimeoutMs"],
    ...["contextWindow", "temperature", "maxTokens", "pricing"],
  ],
  // gemini-cli's settings.json has a model section too.
  others: [
    ...["compressionThreshold", "disableLoopDetection", "maxSessionTurns", "skipNextSpeakerCheck"],
    "summarizeToolOutput",
  ],
};

export const PRICING_KEYS: KeyRule = {
  known: ["inputPerMillion", "outputPerMillion", "cachedInputPerMillion", "currency"],
  others: [],
};
