import path from "node:path";
import type { McptermConfig } from "../core/config/index.js";
import { openKnowledgeBase, type KnowledgeBase, type RefreshReport } from "../core/kb/index.js";
import type { CommonArgs } from "../args.js";

export const DEFAULT_KB_DIR = "knowledge_base";

/** The knowledge-base folder: --kb, else the config's kb.dir, else ./knowledge_base. */
export function knowledgeDir(common: CommonArgs, config: McptermConfig, cwd: string): string {
  return path.resolve(cwd, common.kbDir ?? config.kb.dir ?? DEFAULT_KB_DIR);
}

/** Opens the knowledge base and brings its index up to date (only changed files are re-read). */
export async function openFreshKnowledge(
  common: CommonArgs,
  config: McptermConfig,
  cwd: string,
): Promise<{ kb: KnowledgeBase; report: RefreshReport }> {
  const kb = await openKnowledgeBase({
    dir: knowledgeDir(common, config, cwd),
    indexDir: path.join(cwd, ".mcpterm", "kb"),
  });
  const report = await kb.refresh();
  return { kb, report };
}
