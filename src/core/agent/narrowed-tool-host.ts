import type { AgentTool, ToolCallContext, ToolHost, ToolOutcome, UnavailableTool } from "./tool-host.js";

/** What /tools hide and /tools show may change: the servers and tools offered to the model this session. */
export interface ToolNarrowing {
  /** Stops offering `server`'s tools, or one of them, to the model; a sentence either way. */
  hide(server: string, tool?: string): { ok: boolean; text: string };
  /** Offers them again; `all` offers everything hidden. */
  show(server: string, tool?: string): { ok: boolean; text: string };
}

/**
 * A host whose tools the person can take out of the model's offer for the session, to make room
 * in a small context window: a hidden tool stays listed (/tools says why), marked withheld, so
 * the loop neither offers nor runs it. The config (includeTools, excludeTools) does it for good.
 */
export class NarrowedToolHost implements ToolHost, ToolNarrowing {
  /** `server` or `server/tool`. */
  private readonly hidden = new Set<string>();

  constructor(private readonly host: ToolHost) {}

  list(): AgentTool[] {
    return this.host.list().map((tool) => this.marked(tool));
  }

  async current(tool: AgentTool): Promise<AgentTool | undefined> {
    const now = this.host.current ? await this.host.current(tool) : tool;
    return now && this.marked(now);
  }

  call(tool: AgentTool, args: Record<string, unknown>, context: ToolCallContext): Promise<ToolOutcome> {
    return this.host.call(tool, args, context);
  }

  unavailable(modelName: string): UnavailableTool | undefined {
    return this.host.unavailable?.(modelName);
  }

  hide(server: string, tool?: string): { ok: boolean; text: string } {
    const problem = this.unknown(server, tool);
    if (problem) return { ok: false, text: problem };
    this.hidden.add(key(server, tool));
    const offered = this.list().filter((entry) => entry.withheld === undefined).length;
    return {
      ok: true,
      text: `${tool ? `${server}/${tool} is` : `The tools of ${server} are`} no longer offered to the model this session (${offered} ${offered === 1 ? "tool still is" : "tools still are"}); /tools show ${key(server, tool)} offers ${tool ? "it" : "them"} again.`,
    };
  }

  show(server: string, tool?: string): { ok: boolean; text: string } {
    if (server === "all" && tool === undefined) {
      this.hidden.clear();
      return { ok: true, text: "Every tool is offered to the model again." };
    }
    if (!this.hidden.delete(key(server, tool))) {
      return {
        ok: false,
        text: `${key(server, tool)} was not hidden (hidden: ${[...this.hidden].join(", ") || "nothing"}).`,
      };
    }
    return { ok: true, text: `${key(server, tool)} is offered to the model again.` };
  }

  private marked(tool: AgentTool): AgentTool {
    if (tool.withheld !== undefined) return tool;
    const by = this.hidden.has(tool.server)
      ? tool.server
      : this.hidden.has(key(tool.server, tool.name))
        ? key(tool.server, tool.name)
        : undefined;
    return by === undefined ? tool : { ...tool, withheld: `hidden for this session (/tools show ${by})` };
  }

  private unknown(server: string, tool: string | undefined): string | undefined {
    const tools = this.host.list();
    const servers = [...new Set(tools.map((entry) => entry.server))];
    if (!servers.includes(server))
      return `There is no server named "${server}" with tools (servers: ${servers.join(", ") || "none"}).`;
    if (tool !== undefined && !tools.some((entry) => entry.server === server && entry.name === tool)) {
      return `Server "${server}" has no tool named "${tool}".`;
    }
    return undefined;
  }
}

function key(server: string, tool: string | undefined): string {
  return tool === undefined ? server : `${server}/${tool}`;
}
