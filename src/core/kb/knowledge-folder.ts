import path from "node:path";
import { isInsideFolder, type McptermConfig } from "../config/index.js";
import { ensureProjectStateFolder, PROJECT_STATE_FOLDER } from "../config/project-state-folder.js";
import { ConfigError } from "../errors.js";
import type { OpenKnowledgeBaseOptions } from "./knowledge-base.js";
import type { KnowledgeBase, RefreshReport } from "./types.js";

export const DEFAULT_KB_DIR = "knowledge_base";

/**
 * The knowledge-base folder: the --kb flag, else the config's kb.dir, else ./knowledge_base.
 * Only the flag may name a folder outside the project: a cloned repository's `knowledge_base`
 * that is a symlink to ~/.ssh is refused (ConfigError), since what is indexed is quoted to the model.
 */
export function knowledgeDir(flagDir: string | undefined, config: McptermConfig, cwd: string): string {
  if (flagDir !== undefined) return path.resolve(cwd, flagDir);
  const dir = path.resolve(cwd, config.kb.dir ?? DEFAULT_KB_DIR);
  if (!isInsideFolder(dir, cwd)) {
    throw new ConfigError(
      `The knowledge folder ${path.relative(cwd, dir) || dir} leads outside this project (it is a symlink); mcpterm does not read it — pass --kb <dir> to use a folder outside on purpose, or --no-kb.`,
    );
  }
  return dir;
}

/**
 * Opens the knowledge base in `dir` and brings its index (kept in <cwd>/.mcpterm/kb) up to date.
 * `options` adds embeddings (resolveEmbeddingsSettings) and where their one warning goes.
 */
export async function openFreshKnowledge(
  dir: string,
  cwd: string,
  options: Pick<OpenKnowledgeBaseOptions, "embeddings" | "onWarning"> = {},
): Promise<{ kb: KnowledgeBase; report: RefreshReport }> {
  // A symlinked .mcpterm/kb would have the index written over files somewhere else, or, into
  // the knowledge folder, indexed as documents: no link there at all, inside the project or not.
  const indexDir = path.join(cwd, PROJECT_STATE_FOLDER, "kb");
  try {
    ensureProjectStateFolder(cwd, indexDir);
  } catch (error) {
    // A folder that cannot be made (read-only) is the save's to report; the index still serves.
    if (error instanceof ConfigError) throw error;
  }
  // The index's code (and zod, which checks what is read back) loads here, not with every session:
  // a run with the knowledge base off never needs it.
  const { openKnowledgeBase } = await import("./knowledge-base.js");
  const kb = await openKnowledgeBase({ dir, indexDir, ...options });
  const report = await kb.refresh();
  return { kb, report };
}
