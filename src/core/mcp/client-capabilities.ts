import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";

/**
 * What mcpterm tells every server it can do. Declared in every mode, so servers offer the same
 * tools to the TUI and to scripts; one-shot mode then declines what needs a person.
 */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  roots: { listChanged: true },
  sampling: {},
  elicitation: { form: {}, url: {} },
};
