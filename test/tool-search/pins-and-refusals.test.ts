import { describe, expect, it } from "vitest";
import { pinCommand } from "../../src/core/commands/tool-selection-rows.js";
import { DEFAULT_TOOL_SEARCH } from "../../src/core/config/tool-search-settings.js";
import { resolveToolCall } from "../../src/core/agent/resolve-tool-call.js";
import { offerTools } from "../../src/core/agent/tool-offer.js";
import type { AgentTool, ToolHost } from "../../src/core/agent/tool-host.js";
import { SchemaValidator } from "../../src/core/policy/schema-validator.js";
import { SEARCH_TOOLS_NAME, ToolSearch } from "../../src/core/tool-search/index.js";

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

const searchTool = agentTool("mcpterm", SEARCH_TOOLS_NAME, { modelName: SEARCH_TOOLS_NAME, builtIn: true });

function hostOf(tools: AgentTool[]): ToolHost {
  return {
    list: () => tools,
    call: () => Promise.reject(new Error("not called in these tests")),
  };
}

describe("/tools pin and unpin say what happens", () => {
  const tools = [
    agentTool("tunes", "skipToNext", { withheld: "hidden for this session (/tools show tunes)" }),
    agentTool("blobstore", "DeleteBucket"),
    agentTool("blobstore", "ListBuckets"),
  ];

  it("refuses to pin a hidden tool instead of promising it in every request", () => {
    const search = new ToolSearch();
    const result = pinCommand(search, tools, "pin", "tunes/skipToNext");
    expect(result).toEqual({
      ok: false,
      text: "tunes/skipToNext cannot be pinned: hidden for this session (/tools show tunes).",
    });
    expect(search.pinned()).toEqual([]);
  });

  it("says a tool the config pins is pinned by the config, not that it was not pinned", () => {
    const search = new ToolSearch({ ...DEFAULT_TOOL_SEARCH, alwaysLoad: ["blobstore/DeleteBucket"] });
    expect(pinCommand(search, tools, "unpin", "blobstore/DeleteBucket")).toEqual({
      ok: false,
      text: 'blobstore/DeleteBucket is pinned by the config (alwaysLoad "blobstore/DeleteBucket"), not by /tools pin; remove it from the config to unpin it.',
    });
    expect(pinCommand(search, tools, "unpin", "blobstore/ListBuckets")).toEqual({
      ok: false,
      text: "blobstore/ListBuckets was not pinned (pinned: nothing).",
    });
  });
});

describe("an alwaysLoad entry that names no tool is told, once", () => {
  it("warns when the server lists tools but not that one, and waits while it lists none", async () => {
    const search = new ToolSearch({
      ...DEFAULT_TOOL_SEARCH,
      mode: "always",
      alwaysLoad: ["blobstore/DeleteBuckit", "blobstore/ListBuckets", "later/tool"],
    });
    const tools = [searchTool, agentTool("blobstore", "DeleteBucket"), agentTool("blobstore", "ListBuckets")];
    const turn = { input: "list buckets", conversation: [], window: 32_768 };
    const first = await offerTools(hostOf(tools), search, turn);
    expect(first.warnings).toEqual([
      'alwaysLoad names "blobstore/DeleteBuckit", but server "blobstore" has no tool "DeleteBuckit"; it pins nothing.',
    ]);
    const second = await offerTools(hostOf(tools), search, turn);
    expect(second.warnings).toEqual([]);
    const third = await offerTools(hostOf([...tools, agentTool("later", "other")]), search, turn);
    expect(third.warnings).toEqual([
      'alwaysLoad names "later/tool", but server "later" has no tool "tool"; it pins nothing.',
    ]);
  });
});

const validator = await SchemaValidator.loaded();

describe("a held-back tool's refusal points to search_tools only when it is offered", () => {
  const request = { id: "c1", name: "blobstore__DeleteBucket", arguments: "{}" };
  const selection = { total: 2, why: "test", offered: [], heldBack: 1 };

  it("points to search_tools when the request carries it", () => {
    const offer = { tools: [searchTool], heldBack: new Set([request.name]), selection };
    expect(resolveToolCall(request, 1, offer, validator).call.problem).toContain(`Call ${SEARCH_TOOLS_NAME}`);
  });

  it("does not when the person hid search_tools", () => {
    const offer = {
      tools: [agentTool("blobstore", "ListBuckets")],
      heldBack: new Set([request.name]),
      selection,
    };
    const problem = resolveToolCall(request, 1, offer, validator).call.problem;
    expect(problem).toBe(
      'The tool "blobstore__DeleteBucket" is not offered in this step, so it was not run.',
    );
    const unknown = resolveToolCall({ ...request, name: "made_up" }, 1, offer, validator).call.problem;
    expect(unknown).not.toContain(SEARCH_TOOLS_NAME);
  });
});
