export { formatSourcesForModel } from "./format-sources.js";
export {
  DEFAULT_MAX_FILE_BYTES,
  openKnowledgeBase,
  type OpenKnowledgeBaseOptions,
} from "./knowledge-base.js";
export { tokenize } from "./tokenizer.js";
export type { KbHit, KbStats, KnowledgeBase, RefreshReport, SearchOptions, SkippedFile } from "./types.js";
