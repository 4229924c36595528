import type { KbHit, KnowledgeAccess, KnowledgeBase } from "../kb/index.js";
import { redactDeep } from "../policy/redact-deep.js";
import { KnowledgeToolHost } from "./knowledge-tool-host.js";
import type { KnowledgeSource } from "./run-turn.js";
import type { AgentTool, ToolCallContext, ToolHost, ToolOutcome } from "./tool-host.js";

/**
 * The session's knowledge base, as passages for each message and as the model's search tool.
 * While it is indexed in the background (the TUI) messages get no passages and the model has no
 * search tool, so indexing never delays the prompt. Passages go to the model, so they leave
 * here with secrets removed.
 */
export class LazyKnowledge implements ToolHost, KnowledgeSource {
  private state: KnowledgeAccess;
  private host: ToolHost | undefined;

  constructor(
    initial: KnowledgeAccess,
    private readonly topK: number,
    private readonly redact: (text: string) => string = (text) => text,
  ) {
    this.state = initial;
  }

  access(): KnowledgeAccess {
    return this.state;
  }

  ready(kb: KnowledgeBase): void {
    this.state = { state: "ready", kb };
    this.host = new KnowledgeToolHost(kb, this.redact);
  }

  off(reason: string): void {
    this.state = { state: "off", reason };
    this.host = undefined;
  }

  async search(query: string): Promise<KbHit[]> {
    if (this.state.state !== "ready") return [];
    return redactDeep(await this.state.kb.retrieve(query, { k: this.topK }), this.redact);
  }

  list(): AgentTool[] {
    return this.host?.list() ?? [];
  }

  call(tool: AgentTool, args: Record<string, unknown>, context: ToolCallContext): Promise<ToolOutcome> {
    if (!this.host) {
      const message = "The knowledge base is not ready.";
      return Promise.resolve({
        ok: false,
        forModel: message,
        display: message,
        truncated: false,
        failure: "transient",
      });
    }
    return this.host.call(tool, args, context);
  }
}
