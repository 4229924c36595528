export { plainExcerpt } from "./excerpt.js";
export { formatSourcesForModel } from "./format-sources.js";
export {
  DEFAULT_MAX_FILE_BYTES,
  openKnowledgeBase,
  type OpenKnowledgeBaseOptions,
} from "./knowledge-base.js";
export { DEFAULT_KB_DIR, knowledgeDir, openFreshKnowledge } from "./knowledge-folder.js";
export { describeRelevance, EVIDENCE_FLOOR, EVIDENCE_MIN_COVERAGE, RELEVANCE_FLOOR } from "./relevance.js";
export { tokenize } from "./tokenizer.js";
export type {
  KbHit,
  KbStats,
  KnowledgeAccess,
  KnowledgeBase,
  RefreshReport,
  SearchOptions,
  SkippedFile,
} from "./types.js";
