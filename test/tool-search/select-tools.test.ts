import { describe, expect, it } from "vitest";
import { DEFAULT_TOOL_SEARCH } from "../../src/core/config/tool-search-settings.js";
import { Session } from "../../src/core/agent/session.js";
import type { AgentTool, ToolHost } from "../../src/core/agent/tool-host.js";
import { createOpenAiChatModel } from "../../src/core/llm/openai-chat-model.js";
import type { ChatMessage } from "../../src/core/llm/types.js";
import {
  conversationQuery,
  searchDecision,
  SEARCH_TOOLS_NAME,
  selectTools,
  ToolSearch,
  type RankedTool,
  type SearchableTool,
  type SelectionInput,
} from "../../src/core/tool-search/index.js";

function tool(name: string, server = "s"): SearchableTool {
  return {
    modelName: `${server}__${name}`,
    server,
    name,
    modelDescription: `Does ${name}.`,
    modelInputSchema: {},
  };
}

const a = tool("a");
const b = tool("b");
const c = tool("c");
const d = tool("d");
const e = tool("e");
const builtIn = tool("kb", "mcpterm");
const TOOLS = [builtIn, a, b, c, d, e];
const ranked = (...entries: Array<[SearchableTool, number]>): Array<RankedTool> =>
  entries.map(([entry, score]) => ({ tool: entry, score, matched: ["x"] }));

function input(overrides: Partial<SelectionInput<SearchableTool>>): SelectionInput<SearchableTool> {
  return {
    tools: TOOLS,
    ranked: [],
    always: (entry) => entry.server === "mcpterm",
    pinned: () => false,
    used: new Set(),
    found: new Set(),
    limit: 2,
    size: () => 10,
    maxTokens: 1_000,
    ...overrides,
  };
}

const offered = (selection: ReturnType<typeof selectTools>) =>
  selection.offered.map((entry) => `${entry.tool.name}:${entry.reason}`);

describe("selectTools: what one request offers, and why", () => {
  it.each<[string, Partial<SelectionInput<SearchableTool>>, string[]]>([
    ["mcpterm's own tools always, nothing else when nothing matched", {}, ["kb:always"]],
    [
      "the best-ranked up to the limit, in the tools' own order",
      { ranked: ranked([d, 3], [b, 2], [a, 1]) },
      ["kb:always", "b:score", "d:score"],
    ],
    ["a tool that scored nothing is not offered for it", { ranked: ranked([d, 0]) }, ["kb:always"]],
    [
      "pinned, used and found tools besides the ranked ones",
      {
        ranked: ranked([a, 3], [b, 2], [c, 1]),
        pinned: (entry) => entry.name === "e",
        used: new Set(["s__d"]),
        found: new Set(["s__c"]),
      },
      ["kb:always", "a:score", "b:score", "c:found", "d:used", "e:pinned"],
    ],
    [
      "a used tool that also ranks keeps its place and does not use up the limit",
      { ranked: ranked([a, 3], [b, 2], [c, 1]), used: new Set(["s__a"]) },
      ["kb:always", "a:used", "b:score", "c:score"],
    ],
    [
      "ranked tools only as far as their size allows, the first one always",
      { ranked: ranked([a, 3], [b, 2]), size: () => 800, maxTokens: 1_000 },
      ["kb:always", "a:score"],
    ],
  ])("%s", (_case, overrides, expected) => {
    expect(offered(selectTools(input(overrides)))).toEqual(expected);
  });

  it("holds the rest back with their scores", () => {
    const selection = selectTools(input({ ranked: ranked([a, 3], [b, 2], [c, 1]) }));
    expect(selection.heldBack.map((entry) => [entry.tool.name, entry.score])).toEqual([
      ["c", 1],
      ["d", 0],
      ["e", 0],
    ]);
  });
});

describe("searchDecision: whether requests select their tools", () => {
  it.each<
    [string, Partial<typeof DEFAULT_TOOL_SEARCH>, { count: number; tokens: number; window: number }, boolean]
  >([
    ["few small tools", {}, { count: 30, tokens: 3_000, window: 32_768 }, false],
    ["more tools than maxTools", {}, { count: 61, tokens: 3_000, window: 128_000 }, true],
    ["definitions over a quarter of the window", {}, { count: 20, tokens: 9_000, window: 32_768 }, true],
    ["the same in a larger window", {}, { count: 20, tokens: 9_000, window: 128_000 }, false],
    [
      "mode off, whatever their number",
      { mode: "off" },
      { count: 527, tokens: 129_700, window: 32_768 },
      false,
    ],
    ["mode always, even for two", { mode: "always" }, { count: 2, tokens: 100, window: 32_768 }, true],
    ["a lower maxTools", { maxTools: 10 }, { count: 11, tokens: 500, window: 32_768 }, true],
  ])("%s", (_case, settings, size, on) => {
    const decision = searchDecision({ ...DEFAULT_TOOL_SEARCH, ...settings }, size);
    expect(decision.on).toBe(on);
    expect(decision.why).toMatch(/\w/);
  });
});

describe("conversationQuery: the latest message counts most", () => {
  it("weighs the turn's words whole, the model's words in this turn half, earlier messages less and less", () => {
    const conversation: ChatMessage[] = [
      { role: "system", content: "You are helpful." },
      { role: "user", content: "first" },
      { role: "assistant", content: "old answer" },
      { role: "user", content: "second" },
      { role: "user", content: "now, with passages appended" },
      { role: "assistant", content: "I will look at the calendar", toolCalls: [] },
      { role: "tool", toolCallId: "1", content: "a server's words" },
    ];
    expect(conversationQuery("now", conversation)).toEqual([
      { text: "now", weight: 1 },
      { text: "I will look at the calendar", weight: 0.5 },
      { text: "second", weight: 0.5 },
      { text: "first", weight: 0.25 },
    ]);
  });
});

describe("ToolSearch: a session's selection", () => {
  const catalog: SearchableTool[] = [
    { ...tool(SEARCH_TOOLS_NAME, "mcpterm"), modelName: SEARCH_TOOLS_NAME },
    ...Array.from({ length: 80 }, (_, i) => tool(`tool_${i}`, `server${i % 8}`)),
    {
      modelName: "cal__create_event",
      server: "cal",
      name: "create_event",
      modelDescription: "Add an event to a calendar.",
      modelInputSchema: {},
    },
  ];
  const request = (search: ToolSearch, input: string, window = 32_768) =>
    search.select({
      tools: catalog,
      always: (entry) => entry.server === "mcpterm",
      input,
      conversation: [{ role: "user", content: input }],
      window,
      size: () => 50,
      listSize: (tools) => tools.length * 50,
    });
  const names = (view: Awaited<ReturnType<typeof request>>) =>
    view.offered.map((entry) => entry.tool.modelName);

  it("offers every tool but search_tools below the budget", async () => {
    const view = await request(
      new ToolSearch({ ...DEFAULT_TOOL_SEARCH, maxTools: 100 }),
      "add a calendar event",
    );
    expect(view.on).toBe(false);
    expect(names(view)).toHaveLength(81);
    expect(names(view)).not.toContain(SEARCH_TOOLS_NAME);
  });

  it("offers search_tools and the matching tools above it, and what search_tools found from then on", async () => {
    const search = new ToolSearch();
    const first = await request(search, "add a calendar event");
    expect(first.on).toBe(true);
    expect(first.total).toBe(81);
    expect(names(first)).toEqual([SEARCH_TOOLS_NAME, "cal__create_event"]);

    const found = await search.search(catalog.slice(1), "tool 7", 1);
    search.noteFound(found.map((entry) => entry.tool.modelName));
    const second = await request(search, "add a calendar event");
    expect(second.offered.find((entry) => entry.tool.modelName === found[0]?.tool.modelName)?.reason).toBe(
      "found",
    );
    expect(search.lastSelection()).toBe(second);
  });

  it("keeps what the model used and what the person pinned", async () => {
    const search = new ToolSearch({ ...DEFAULT_TOOL_SEARCH, alwaysLoad: ["server3"] });
    search.noteUsed(["server1__tool_1"]);
    search.pin("server2", "tool_2");
    const view = await request(search, "nothing matches this");
    const reasons = Object.fromEntries(view.offered.map((entry) => [entry.tool.modelName, entry.reason]));
    expect(reasons["server1__tool_1"]).toBe("used");
    expect(reasons["server2__tool_2"]).toBe("pinned");
    expect(Object.values(reasons).filter((reason) => reason === "pinned")).toHaveLength(11);
    expect(search.unpin("server2", "tool_2")).toBe(true);
    expect(search.unpin("server2", "tool_2")).toBe(false);
  });
});

describe("Session and tool search", () => {
  const tools: AgentTool[] = Array.from({ length: 5 }, (_, i) => ({
    modelName: `s__tool_${i}`,
    server: "s",
    name: `tool_${i}`,
    description: `Does thing ${i}.`,
    modelDescription: `Does thing ${i}.`,
    inputSchema: { type: "object" },
    modelInputSchema: { type: "object" },
    tier: "read_only",
    tierReason: "test",
    notes: [],
  }));
  const host: ToolHost = {
    list: () => tools,
    call: () => Promise.reject(new Error("not called")),
  };
  const used = async (search: ToolSearch): Promise<string[]> =>
    (
      await search.select({
        tools,
        always: () => false,
        input: "nothing matches",
        conversation: [],
        window: 32_768,
        size: () => 10,
        listSize: (list) => list.length * 10,
      })
    ).offered
      .filter((entry) => entry.reason === "used")
      .map((entry) => entry.tool.modelName);

  it("offers a resumed conversation's tools as used ones, and forgets them on /clear", async () => {
    const search = new ToolSearch({ ...DEFAULT_TOOL_SEARCH, mode: "always" });
    const session = new Session({
      model: createOpenAiChatModel({ model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k" }),
      tools: host,
      approval: { project: [], settings: [], flagged: [], interactive: false },
      maxSteps: 1,
      cwd: process.cwd(),
      toolSearch: search,
    });
    session.restore({
      history: [
        { role: "user", content: "do thing 3" },
        { role: "assistant", content: null, toolCalls: [{ id: "1", name: "s__tool_3", arguments: "{}" }] },
        { role: "tool", toolCallId: "1", content: "done" },
      ],
      turns: 1,
    });
    expect(await used(search)).toEqual(["s__tool_3"]);
    session.clear();
    expect(await used(search)).toEqual([]);
  });
});
