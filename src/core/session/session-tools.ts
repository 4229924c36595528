import { statSync, type Stats } from "node:fs";
import path from "node:path";
import { CompositeToolHost } from "../agent/composite-tool-host.js";
import { LazyKnowledge } from "../agent/lazy-knowledge.js";
import { NarrowedToolHost } from "../agent/narrowed-tool-host.js";
import { SearchToolsHost } from "../agent/search-tools-host.js";
import type { AgentTool, ToolHost } from "../agent/tool-host.js";
import type { McptermConfig } from "../config/index.js";
import { errorMessage } from "../errors.js";
import type { KnowledgeAccess } from "../kb/index.js";
import { knowledgeDir, openFreshKnowledge } from "../kb/knowledge-folder.js";
import type { ToolSearch } from "../tool-search/index.js";

const KB_OFF = "The knowledge base is turned off (--no-kb, or kb.enabled in the config).";

/** The session's knowledge base: to be loaded (loadKnowledge) when `on` and the config allows it, else off. */
export function sessionKnowledge(
  config: McptermConfig,
  on: boolean,
  redact: (text: string) => string,
): LazyKnowledge {
  return new LazyKnowledge(
    on && config.kb.enabled ? { state: "loading" } : { state: "off", reason: KB_OFF },
    config.kb.topK,
    redact,
  );
}

/**
 * The knowledge base of a run nobody works in (`-p`, `tools --search`): as sessionKnowledge, but
 * off when its folder is not there. Such a run has nothing to search then, and ends before
 * anything could make the folder, so neither the index's code (and zod) is loaded nor the search
 * tool offered, and the first model request does not wait for them (a session a person works in
 * still opens it: `/kb add` makes the folder). A folder named with --kb or kb.dir that is not
 * there is a typo, and `warn` hears of it; the default folder missing is the usual case.
 */
export function oneShotKnowledge(
  config: McptermConfig,
  on: boolean,
  redact: (text: string) => string,
  where: { flagDir: string | undefined; cwd: string },
  warn: (text: string) => void,
): LazyKnowledge {
  const absent =
    on && config.kb.enabled ? absentKnowledgeFolder(where.flagDir, config, where.cwd) : undefined;
  if (absent === undefined) return sessionKnowledge(config, on, redact);
  if (absent.named) warn(absent.reason);
  return new LazyKnowledge({ state: "off", reason: absent.reason }, config.kb.topK, redact);
}

/**
 * Why the knowledge folder cannot be opened because it is not there (or is a file), and whether
 * it was named (--kb, kb.dir) rather than the default. Undefined when it is a folder, or when
 * where it is cannot be told (a folder that leads outside the project: loadKnowledge says why).
 */
function absentKnowledgeFolder(
  flagDir: string | undefined,
  config: McptermConfig,
  cwd: string,
): { reason: string; named: boolean } | undefined {
  let dir: string;
  try {
    dir = knowledgeDir(flagDir, config, cwd);
  } catch {
    return undefined;
  }
  let found: Stats | undefined;
  try {
    found = statSync(dir, { throwIfNoEntry: false });
  } catch (error) {
    // A file where a folder on the way should be (`--kb notes.md/docs`) means it is not there;
    // anything else (no permission) is loadKnowledge's to report as it fails.
    if ((error as NodeJS.ErrnoException).code !== "ENOTDIR") return undefined;
  }
  if (found?.isDirectory()) return undefined;
  const what = found ? "is not a folder" : "does not exist";
  if (flagDir !== undefined)
    return {
      reason: `The knowledge folder ${flagDir} (--kb) ${what}; the knowledge base is off.`,
      named: true,
    };
  const shown = path.relative(cwd, dir) || dir;
  if (config.kb.dir !== undefined)
    return {
      reason: `The knowledge folder ${shown} (kb.dir in ${config.path ?? "the config"}) ${what}; the knowledge base is off.`,
      named: true,
    };
  return { reason: `There is no knowledge folder (${shown}) here.`, named: false };
}

/**
 * The tools a session offers the model, wired in this one place for sessions and for `mcpterm
 * tools --search`, so both offer from the same list: mcpterm's own first (the knowledge base's
 * search once it is ready, search_tools over the rest), then the servers'; /tools hide narrows it.
 */
export function sessionToolHost(parts: {
  knowledge: ToolHost;
  toolSearch: ToolSearch;
  servers: ToolHost;
}): NarrowedToolHost {
  const searchTools = new SearchToolsHost(parts.toolSearch, (): AgentTool[] => tools.list());
  const tools = new NarrowedToolHost(new CompositeToolHost([parts.knowledge, searchTools, parts.servers]));
  return tools;
}

/** Indexes the knowledge folder; a knowledge base that cannot be opened is turned off, with why. */
export async function loadKnowledge(
  knowledge: LazyKnowledge,
  dir: () => string,
  cwd: string,
  options: Parameters<typeof openFreshKnowledge>[2],
): Promise<KnowledgeAccess> {
  try {
    knowledge.ready((await openFreshKnowledge(dir(), cwd, options)).kb);
  } catch (error) {
    knowledge.off(`The knowledge base could not be opened: ${errorMessage(error)}`);
  }
  return knowledge.access();
}
