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
  toolKey,
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
const builtIn = { ...tool("kb", "mcpterm"), builtIn: true };
const TOOLS = [builtIn, a, b, c, d, e];
const ranked = (...entries: Array<[SearchableTool, number]>): Array<RankedTool> =>
  entries.map(([entry, score]) => ({ tool: entry, score, matched: ["x"] }));

function input(overrides: Partial<SelectionInput<SearchableTool>>): SelectionInput<SearchableTool> {
  return {
    tools: TOOLS,
    ranked: [],
    pinned: () => false,
    remembered: [],
    limit: 2,
    size: () => 10,
    budget: { offer: 1_000, ranked: 1_000 },
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
        remembered: [
          { key: toolKey(d), reason: "used" },
          { key: toolKey(c), reason: "found" },
        ],
      },
      ["kb:always", "a:score", "b:score", "c:found", "d:used", "e:pinned"],
    ],
    [
      "a used tool that also ranks keeps its place and does not use up the limit",
      { ranked: ranked([a, 3], [b, 2], [c, 1]), remembered: [{ key: toolKey(a), reason: "used" }] },
      ["kb:always", "a:used", "b:score", "c:score"],
    ],
    [
      "ranked tools only as far as their share allows, the first one past it",
      { ranked: ranked([a, 3], [b, 2]), size: () => 800, budget: { offer: 10_000, ranked: 500 } },
      ["kb:always", "a:score"],
    ],
    [
      "within the offer's budget, the latest used or found first, each that fits, then the ranked",
      {
        ranked: ranked([a, 3]),
        pinned: (entry) => entry.name === "e",
        remembered: [
          { key: toolKey(c), reason: "found" },
          { key: toolKey(d), reason: "used" },
          { key: toolKey(b), reason: "found" },
        ],
        size: (entry) => (entry.name === "d" ? 500 : 100),
        budget: { offer: 450, ranked: 1_000 },
      },
      ["kb:always", "b:found", "c:found", "e:pinned"],
    ],
    [
      "mcpterm's own and the pinned tools even past the budget, and nothing else",
      {
        ranked: ranked([a, 3]),
        pinned: (entry) => entry.name === "e",
        remembered: [{ key: toolKey(c), reason: "found" }],
        size: () => 100,
        budget: { offer: 150, ranked: 1_000 },
      },
      ["kb:always", "e:pinned"],
    ],
  ])("%s", (_case, overrides, expected) => {
    expect(offered(selectTools(input(overrides)))).toEqual(expected);
  });

  it("says when mcpterm's own and the pinned tools alone pass the budget, and which remembered ones had no room", () => {
    const selection = selectTools(
      input({
        pinned: (entry) => entry.name === "e",
        remembered: [{ key: toolKey(c), reason: "found" }],
        size: () => 100,
        budget: { offer: 150, ranked: 1_000 },
      }),
    );
    expect(selection.overBudget).toEqual({ tokens: 200, pinned: 1 });
    expect(selection.heldBack.find((entry) => entry.tool.name === "c")?.remembered).toBe("found");
    expect(selectTools(input({})).overBudget).toBeUndefined();
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
    [
      "mode always, but no server tools to select",
      { mode: "always" },
      { count: 0, tokens: 0, window: 32_768 },
      false,
    ],
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

describe("conversationQuery: a long message is cut whole characters only", () => {
  it("leaves no half of an emoji at the cut", () => {
    const [part] = conversationQuery(`${"x".repeat(3_999)}😀 and more`, []);
    expect(part?.text).toBe("x".repeat(3_999));
  });
});

describe("ToolSearch: a session's selection", () => {
  const catalog: SearchableTool[] = [
    { ...tool(SEARCH_TOOLS_NAME, "mcpterm"), modelName: SEARCH_TOOLS_NAME, builtIn: true },
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
    search.noteFound(found.map((entry) => entry.tool));
    const second = await request(search, "add a calendar event");
    expect(second.offered.find((entry) => entry.tool.modelName === found[0]?.tool.modelName)?.reason).toBe(
      "found",
    );
    expect(search.lastSelection()).toBe(second);
  });

  it("treats a server named mcpterm as a server: its tools are ranked and counted, its search_tools kept", async () => {
    const impostors: SearchableTool[] = [tool(SEARCH_TOOLS_NAME, "mcpterm"), tool("wipe_disk", "mcpterm")];
    const select = (search: ToolSearch, tools: readonly SearchableTool[]) =>
      search.select({
        tools,
        input: "add a calendar event",
        conversation: [],
        window: 32_768,
        size: () => 50,
        listSize: (list) => list.length * 50,
      });
    const above = await select(new ToolSearch(), [...catalog, ...impostors]);
    expect(above.total).toBe(83);
    expect(names(above)).toEqual([SEARCH_TOOLS_NAME, "cal__create_event"]);

    const below = await select(new ToolSearch(), [catalog[0] as SearchableTool, ...impostors]);
    expect(below.on).toBe(false);
    expect(names(below)).toEqual(["mcpterm__search_tools", "mcpterm__wipe_disk"]);
  });

  it("remembers used tools by server and tool: a model name that passes to another tool carries nothing", async () => {
    const weather = {
      ...tool("get__c", "a"),
      modelName: "a__get__c",
      modelDescription: "Reads the weather.",
    };
    const charge = {
      ...tool("c", "a__get"),
      modelName: "a__get__c_1f2e",
      modelDescription: "Charges a card.",
    };
    const search = new ToolSearch({ ...DEFAULT_TOOL_SEARCH, mode: "always" });
    search.noteUsed([weather]);
    // Server "a" stopped: the other server's tool now goes by the name the model called.
    const view = await search.select({
      tools: [{ ...charge, modelName: "a__get__c" }],
      input: "again",
      conversation: [],
      window: 32_768,
      size: () => 50,
      listSize: (list) => list.length * 50,
    });
    expect(view.offered).toEqual([]);
    expect(view.heldBack.map((entry) => entry.tool.name)).toEqual(["c"]);
  });

  describe("found tools never outgrow the window", () => {
    // 60 tools of about 1,000 tokens each: a 32,768-token window's quarter holds eight.
    const big: SearchableTool[] = [
      catalog[0] as SearchableTool,
      ...Array.from({ length: 60 }, (_, i) => tool(`repo_tool_${i}`, "forge")),
    ];
    const size = (entry: SearchableTool) => (entry.builtIn ? 100 : 1_000);
    const select = (search: ToolSearch) =>
      search.select({
        tools: big,
        input: "what time is it",
        conversation: [],
        window: 32_768,
        size,
        listSize: (list) => list.reduce((sum, entry) => sum + size(entry), 0),
      });
    const found = (from: number) => big.slice(1 + from, 21 + from);
    const offeredNames = (view: Awaited<ReturnType<typeof select>>) =>
      view.offered.filter((entry) => entry.reason === "found").map((entry) => entry.tool.name);

    it("two searches of twenty leave the offer within its budget, the latest search's best first", async () => {
      const search = new ToolSearch();
      await select(search);
      search.noteFound(found(0));
      expect(search.offeredNext(found(0))).toEqual(new Set(found(0).slice(0, 8).map(toolKey)));
      const second = await select(search);
      expect(offeredNames(second)).toEqual(
        found(0)
          .slice(0, 8)
          .map((entry) => entry.name),
      );

      search.noteFound(found(20));
      expect(search.offeredNext(found(20))).toEqual(new Set(found(20).slice(0, 8).map(toolKey)));
      const third = await select(search);
      expect(offeredNames(third)).toEqual(
        found(20)
          .slice(0, 8)
          .map((entry) => entry.name),
      );
      const tokens = third.offered.reduce((sum, entry) => sum + size(entry.tool), 0);
      expect(tokens).toBeLessThanOrEqual(32_768 / 4);
      expect(third.problem).toBeUndefined();
    });

    it("a second search in the same step does not take the room the first one was promised", async () => {
      const search = new ToolSearch();
      await select(search);
      search.noteFound(found(0).slice(0, 5));
      search.noteFound(found(20));
      expect(search.offeredNext(found(0).slice(0, 5)).size).toBe(5);
      expect(search.offeredNext(found(20))).toEqual(new Set(found(20).slice(0, 3).map(toolKey)));
      const next = await select(search);
      expect(offeredNames(next)).toEqual([
        ...found(0)
          .slice(0, 5)
          .map((entry) => entry.name),
        ...found(20)
          .slice(0, 3)
          .map((entry) => entry.name),
      ]);
    });

    it("says in one sentence what to do when the pinned tools alone pass the budget", async () => {
      const view = await select(new ToolSearch({ ...DEFAULT_TOOL_SEARCH, alwaysLoad: ["forge"] }));
      expect(view.offered.filter((entry) => entry.reason === "pinned")).toHaveLength(60);
      expect(view.problem).toBe(
        "mcpterm's own tools and the 60 pinned ones take about 60,100 tokens, more than the 8,192 (25% of the 32,768-token window) a request's tools may take, so no other tool fits; pin fewer (/tools unpin, or alwaysLoad in the config) or raise tools.search.windowShare.",
      );
    });
  });

  it("keeps what the model used and what the person pinned", async () => {
    const search = new ToolSearch({ ...DEFAULT_TOOL_SEARCH, alwaysLoad: ["server3"] });
    search.noteUsed([{ server: "server1", name: "tool_1" }]);
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
        input: "nothing matches",
        conversation: [],
        window: 32_768,
        size: () => 10,
        listSize: (list) => list.length * 10,
      })
    ).offered
      .filter((entry) => entry.reason === "used")
      .map((entry) => entry.tool.modelName);

  it("offers a resumed conversation's offered calls as used ones, not refused or made-up ones, and forgets them on /clear", async () => {
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
        {
          role: "assistant",
          content: null,
          toolCalls: [
            { id: "1", name: "s__tool_3", arguments: "{}" },
            { id: "2", name: "s__tool_1", arguments: "{}" },
            { id: "3", name: "made_up__tool", arguments: "{}" },
          ],
        },
        { role: "tool", toolCallId: "1", content: "done" },
        { role: "tool", toolCallId: "2", content: 'The tool "s__tool_1" is not offered in this step' },
        { role: "tool", toolCallId: "3", content: 'Unknown tool "made_up__tool".' },
      ],
      turns: 1,
      // What the turn saved: only the call that named a tool its request offered.
      calls: [{ server: "s", tool: "tool_3" }],
    });
    expect(await used(search)).toEqual(["s__tool_3"]);
    session.clear();
    expect(await used(search)).toEqual([]);
  });
});
