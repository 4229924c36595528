import path from "node:path";
import type { McptermConfig } from "../config/index.js";
import { openKnowledgeBase } from "./knowledge-base.js";
import type { KnowledgeBase, RefreshReport } from "./types.js";

export const DEFAULT_KB_DIR = "knowledge_base";

/** The knowledge-base folder: the --kb flag, else the config's kb.dir, else ./knowledge_base. */
export function knowledgeDir(flagDir: string | undefined, config: McptermConfig, cwd: string): string {
  return path.resolve(cwd, flagDir ?? config.kb.dir ?? DEFAULT_KB_DIR);
}

/** Opens the knowledge base in `dir` and brings its index (kept in <cwd>/.mcpterm/kb) up to date. */
export async function openFreshKnowledge(
  dir: string,
  cwd: string,
): Promise<{ kb: KnowledgeBase; report: RefreshReport }> {
  const kb = await openKnowledgeBase({ dir, indexDir: path.join(cwd, ".mcpterm", "kb") });
  const report = await kb.refresh();
  return { kb, report };
}
