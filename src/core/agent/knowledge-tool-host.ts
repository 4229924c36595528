import type { KnowledgeBase } from "../kb/index.js";
import { formatSourcesForModel } from "../kb/format-sources.js";
import { BUILT_IN_SERVER, type AgentTool, type ToolHost, type ToolOutcome } from "./tool-host.js";

export const KNOWLEDGE_TOOL_NAME = "search_knowledge_base";

const KNOWLEDGE_TOOL_DESCRIPTION =
  "Search the user's local knowledge base (notes, runbooks, specs) for passages about a topic. " +
  "Returns numbered passages with file path and line range; cite them as [n].";

const KNOWLEDGE_TOOL_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    query: { type: "string", description: "What to look for, in the words the documents would use." },
    k: {
      type: "integer",
      minimum: 1,
      maximum: 20,
      description: "How many passages to return (default 5).",
    },
  },
  required: ["query"],
};

/** The built-in read-only tool through which the model searches the knowledge base on its own. */
export class KnowledgeToolHost implements ToolHost {
  private readonly tool: AgentTool = {
    modelName: KNOWLEDGE_TOOL_NAME,
    server: BUILT_IN_SERVER,
    name: KNOWLEDGE_TOOL_NAME,
    description: KNOWLEDGE_TOOL_DESCRIPTION,
    inputSchema: KNOWLEDGE_TOOL_SCHEMA,
    modelInputSchema: KNOWLEDGE_TOOL_SCHEMA,
    modelDescription: KNOWLEDGE_TOOL_DESCRIPTION,
    tier: "read_only",
    tierReason: "built-in: reads the local knowledge base",
    notes: [],
    builtIn: true,
  };

  constructor(
    private readonly kb: KnowledgeBase,
    /** Notes may hold secrets too; the model should not receive them. */
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  /** Offered while the knowledge base holds something: a search of an empty one only costs tokens. */
  list(): AgentTool[] {
    return this.kb.stats().chunks > 0 ? [this.tool] : [];
  }

  async call(_tool: AgentTool, args: Record<string, unknown>): Promise<ToolOutcome> {
    const query = typeof args.query === "string" ? args.query : "";
    const k = typeof args.k === "number" ? args.k : 5;
    const hits = await this.kb.retrieve(query, { k });
    const text =
      hits.length > 0
        ? this.redact(formatSourcesForModel(hits))
        : `No passages in the knowledge base match "${query}".`;
    return { ok: true, forModel: text, display: text, truncated: false, failure: undefined };
  }
}
