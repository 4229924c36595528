import { describe, expect, it } from "vitest";
import { SearchToolsHost } from "../../src/core/agent/search-tools-host.js";
import type { AgentTool, ToolCallContext } from "../../src/core/agent/tool-host.js";
import { DEFAULT_TOOL_SEARCH } from "../../src/core/config/tool-search-settings.js";
import { ToolSearch } from "../../src/core/tool-search/index.js";
import { estimateTextTokens } from "../../src/core/window/token-estimate.js";

/** 200 tools that all match "record": more than any answer lists. */
const TOOLS: AgentTool[] = Array.from({ length: 200 }, (_, i) => ({
  modelName: `crm__update_record_${i}`,
  server: "crm",
  name: `update_record_${i}`,
  description: `Updates record ${i} of the customer database, with every field it has.`,
  modelDescription: `Updates record ${i} of the customer database, with every field it has.`,
  inputSchema: { type: "object" },
  modelInputSchema: { type: "object" },
  tier: "low_risk",
  tierReason: "test",
  notes: [],
}));

function context(limits: Partial<ToolCallContext> = {}): ToolCallContext {
  return { callId: "c1", signal: new AbortController().signal, onProgress: () => undefined, ...limits };
}

async function selectNext(search: ToolSearch) {
  return search.select({
    tools: TOOLS,
    input: "nothing in common",
    conversation: [],
    window: 1_000_000,
    size: () => 10,
    listSize: (list) => list.length * 10,
  });
}

describe("search_tools keeps to the limits every result keeps to", () => {
  it("searches a huge query by its first words and does not repeat it whole", async () => {
    const search = new ToolSearch({ ...DEFAULT_TOOL_SEARCH, mode: "always" });
    const host = new SearchToolsHost(search, () => TOOLS);
    const query = `update the record ${"and then some more words ".repeat(20_000)}`;
    const outcome = await host.call(host.list()[0] as AgentTool, { query }, context());
    expect(outcome.ok).toBe(true);
    expect(outcome.forModel.length).toBeLessThan(2_000);
    expect(outcome.forModel).toContain("crm__update_record_0");
  });

  it("lists only as many tools as the step's result limits allow, and notes only those as found", async () => {
    const search = new ToolSearch({ ...DEFAULT_TOOL_SEARCH, mode: "always" });
    await selectNext(search);
    const host = new SearchToolsHost(search, () => TOOLS);
    const outcome = await host.call(
      host.list()[0] as AgentTool,
      { query: "update the customer record", limit: 20 },
      context({ resultCharLimit: 1_000 }),
    );
    expect(outcome.forModel.length).toBeLessThanOrEqual(1_000);
    expect(outcome.forModel.endsWith("</found_tools>")).toBe(true);
    expect(outcome.truncated).toBe(true);
    const listed = [...outcome.forModel.matchAll(/^- (crm__\w+)/gm)].map((match) => match[1]);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBeLessThan(20);
    const found = (await selectNext(search)).offered.filter((entry) => entry.reason === "found");
    expect(found.map((entry) => entry.tool.modelName)).toEqual(listed);

    const tight = await host.call(
      host.list()[0] as AgentTool,
      { query: "update record", limit: 20 },
      context({ resultTokenLimit: 200 }),
    );
    expect(estimateTextTokens(tight.forModel)).toBeLessThanOrEqual(200);
    expect(tight.forModel.endsWith("</found_tools>")).toBe(true);
  });
});
