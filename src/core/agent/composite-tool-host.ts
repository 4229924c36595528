import type { AgentTool, ToolCallContext, ToolHost, ToolOutcome } from "./tool-host.js";

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

  call(tool: AgentTool, args: Record<string, unknown>, context: ToolCallContext): Promise<ToolOutcome> {
    const owner =
      this.owners.get(tool) ??
      this.hosts.find((host) => host.list().some((t) => t.modelName === tool.modelName));
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
}
