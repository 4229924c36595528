import { KnowledgeToolHost } from "../core/agent/knowledge-tool-host.js";
import type { KnowledgeSource } from "../core/agent/run-turn.js";
import type { AgentTool, ToolCallContext, ToolHost, ToolOutcome } from "../core/agent/tool-host.js";
import type { KnowledgeAccess } from "../core/commands/command-types.js";
import type { KnowledgeBase } from "../core/kb/index.js";

/**
 * The knowledge base while it is indexed in the background: until it is ready, messages get no
 * passages and the model has no search tool, so indexing never delays the prompt.
 */
export class LazyKnowledge implements ToolHost, KnowledgeSource {
  private access: KnowledgeAccess;
  private host: ToolHost | undefined;

  constructor(
    initial: KnowledgeAccess,
    private readonly topK: number,
    private readonly redact: (text: string) => string = (text) => text,
  ) {
    this.access = initial;
  }

  current(): KnowledgeAccess {
    return this.access;
  }

  ready(kb: KnowledgeBase): void {
    this.access = { state: "ready", kb };
    this.host = new KnowledgeToolHost(kb, this.redact);
  }

  off(reason: string): void {
    this.access = { state: "off", reason };
    this.host = undefined;
  }

  search(query: string): ReturnType<KnowledgeBase["search"]> {
    return this.access.state === "ready" ? this.access.kb.search(query, { k: this.topK }) : [];
  }

  list(): AgentTool[] {
    return this.host?.list() ?? [];
  }

  call(tool: AgentTool, args: Record<string, unknown>, context: ToolCallContext): Promise<ToolOutcome> {
    if (!this.host) {
      return Promise.resolve({
        ok: false,
        content: "The knowledge base is not ready.",
        truncated: false,
        failure: "transient",
      });
    }
    return this.host.call(tool, args, context);
  }
}
