import type { AgentTool, ToolCallContext, ToolHost, ToolOutcome, UnavailableTool } from "./tool-host.js";

/** Several tool hosts seen as one: built-in tools first, then the MCP servers'. */
export class CompositeToolHost implements ToolHost {
  private readonly owners = new WeakMap<AgentTool, ToolHost>();

  constructor(private readonly hosts: readonly ToolHost[]) {}

  list(): AgentTool[] {
    return this.hosts.flatMap((host) =>
      host.list().map((tool) => {
        this.owners.set(tool, host);
        return tool;
      }),
    );
  }

  async current(tool: AgentTool): Promise<AgentTool | undefined> {
    const owner = this.ownerOf(tool);
    if (!owner) return undefined;
    const now = owner.current ? await owner.current(tool) : tool;
    if (now) this.owners.set(now, owner);
    return now;
  }

  call(tool: AgentTool, args: Record<string, unknown>, context: ToolCallContext): Promise<ToolOutcome> {
    const owner = this.ownerOf(tool);
    if (!owner) {
      const message = `Unknown tool "${tool.modelName}".`;
      return Promise.resolve({
        ok: false,
        forModel: message,
        display: message,
        truncated: false,
        failure: "invalid_args",
      });
    }
    return owner.call(tool, args, context);
  }

  unavailable(modelName: string): UnavailableTool | undefined {
    for (const host of this.hosts) {
      const gone = host.unavailable?.(modelName);
      if (gone) return gone;
    }
    return undefined;
  }

  private ownerOf(tool: AgentTool): ToolHost | undefined {
    return (
      this.owners.get(tool) ??
      this.hosts.find((host) => host.list().some((candidate) => candidate.modelName === tool.modelName))
    );
  }
}
