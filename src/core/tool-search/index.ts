export { conversationQuery } from "./conversation-query.js";
export {
  DEFAULT_SEARCH_LIMIT,
  describeFound,
  MAX_SEARCH_LIMIT,
  SEARCH_TOOLS_DESCRIPTION,
  SEARCH_TOOLS_NAME,
  SEARCH_TOOLS_SCHEMA,
} from "./search-tools-definition.js";
export { isNamedIn, searchDecision, toolSearchSettingsOf } from "./search-settings.js";
export {
  DEFAULT_TOOL_SEARCH,
  TOOL_SEARCH_MODES,
  type ToolSearchSettings,
} from "../config/tool-search-settings.js";
export {
  selectTools,
  type HeldBackTool,
  type OfferedTool,
  type OfferReason,
  type Selection,
  type SelectionInput,
} from "./select-tools.js";
export { toolDocument, type SearchableTool } from "./tool-document.js";
export { ToolIndex, type RankedTool } from "./tool-index.js";
export { ToolSearch, type SelectRequest, type ToolSelectionView } from "./tool-search.js";
export { ToolVectors, type ToolEmbedder } from "./tool-vectors.js";
export { weightedTerms, type QueryPart, type WeightedTerms } from "./weighted-query.js";
export { sessionToolSearch } from "./session-tool-search.js";
