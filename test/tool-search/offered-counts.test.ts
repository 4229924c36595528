import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/core/agent/events.js";
import { offerTools } from "../../src/core/agent/tool-offer.js";
import type { AgentTool, ToolHost } from "../../src/core/agent/tool-host.js";
import { selectionNote } from "../../src/core/commands/tool-selection-rows.js";
import { DEFAULT_TOOL_SEARCH } from "../../src/core/config/tool-search-settings.js";
import { parseTrace } from "../../src/core/trace/trace-reader.js";
import { renderTraceTree } from "../../src/core/trace/trace-tree.js";
import { SEARCH_TOOLS_NAME, ToolSearch } from "../../src/core/tool-search/index.js";
import { progressLine } from "../../src/headless/progress-lines.js";
import { initialTranscriptState, transcriptReducer } from "../../src/ui/transcript/transcript-reducer.js";

function agentTool(server: string, name: string, extra: Partial<AgentTool> = {}): AgentTool {
  return {
    modelName: `${server}__${name}`,
    server,
    name,
    description: `Does ${name}.`,
    modelDescription: `Does ${name}.`,
    inputSchema: { type: "object" },
    modelInputSchema: { type: "object" },
    tier: "read_only",
    tierReason: "test",
    notes: [],
    ...extra,
  };
}

describe("every place that counts offered tools counts the servers' tools, mcpterm's own apart", () => {
  it("the status line, /tools, the progress line and the trace tree agree with a knowledge base on", async () => {
    const tools = [
      agentTool("mcpterm", SEARCH_TOOLS_NAME, { modelName: SEARCH_TOOLS_NAME, builtIn: true }),
      agentTool("mcpterm", "search_knowledge_base", { modelName: "search_knowledge_base", builtIn: true }),
      agentTool("store", "delete_bucket"),
      agentTool("store", "list_buckets"),
      agentTool("music", "play_song"),
    ];
    const host: ToolHost = { list: () => tools, call: () => Promise.reject(new Error("not called")) };
    const search = new ToolSearch({ ...DEFAULT_TOOL_SEARCH, mode: "always" });
    const offer = await offerTools(host, search, {
      input: "delete a bucket",
      conversation: [{ role: "user", content: "delete a bucket" }],
      window: 32_768,
    });
    const servers = offer.tools.filter((tool) => tool.builtIn !== true).length;
    expect(servers).toBeGreaterThan(0);
    expect(offer.tools.length).toBe(servers + 2);

    const event: AgentEvent = {
      type: "model_request",
      step: 1,
      messageCount: 2,
      tools: offer.tools.map((tool) => tool.modelName),
      ...(offer.selection ? { selection: offer.selection } : {}),
    };
    expect(transcriptReducer(initialTranscriptState(), event).toolSelection).toEqual({
      offered: servers,
      total: 3,
    });
    expect(progressLine(event, new Map())).toMatch(new RegExp(`^tools: ${servers} of 3 offered`));
    expect(selectionNote(search)).toContain(`the last one offered ${servers} of 3,`);

    const records = [
      { type: "turn_start", turn: 1, input: "delete a bucket", ts: 1 },
      { ...event, ts: 2 },
    ];
    const trace = parseTrace(records.map((record) => JSON.stringify(record)).join("\n"));
    expect(renderTraceTree(trace)).toContain(`${servers + 2} tools offered: ${servers} of 3 selected`);
  });
});
