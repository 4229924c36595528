import { CompositeToolHost } from "../agent/composite-tool-host.js";
import { LazyKnowledge } from "../agent/lazy-knowledge.js";
import { NarrowedToolHost } from "../agent/narrowed-tool-host.js";
import { SearchToolsHost } from "../agent/search-tools-host.js";
import type { AgentTool, ToolHost } from "../agent/tool-host.js";
import type { McptermConfig } from "../config/index.js";
import { errorMessage } from "../errors.js";
import type { KnowledgeAccess } from "../kb/index.js";
import { openFreshKnowledge } from "../kb/knowledge-folder.js";
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
