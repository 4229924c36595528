import type { McptermConfig } from "../config/config-types.js";
import type { EmbeddingsSettings } from "../config/embeddings-settings.js";
import { EmbeddingsClient } from "../kb/embeddings-client.js";
import { toolSearchSettingsOf } from "./search-settings.js";
import { ToolSearch } from "./tool-search.js";
import { ToolVectors } from "./tool-vectors.js";

/**
 * A session's tool search from its config: `tools.search` and the servers' `alwaysLoad`, the
 * servers' instructions to search with their tools, and the knowledge base's embeddings endpoint
 * (`kb.embeddings`, as resolved and trusted for it) joined to the ranking when there is one.
 */
export function sessionToolSearch(
  config: McptermConfig,
  options: {
    embeddings: EmbeddingsSettings | undefined;
    instructions: (server: string) => string;
    warn: (text: string) => void;
  },
): ToolSearch {
  const vectors = options.embeddings
    ? new ToolVectors(new EmbeddingsClient(options.embeddings), options.warn)
    : undefined;
  return new ToolSearch(toolSearchSettingsOf(config), {
    instructions: options.instructions,
    ...(vectors ? { vectors } : {}),
  });
}
