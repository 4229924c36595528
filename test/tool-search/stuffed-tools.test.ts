import { describe, expect, it } from "vitest";
import { DEFAULT_TOOL_SEARCH } from "../../src/core/config/tool-search-settings.js";
import { ToolSearch, type SearchableTool } from "../../src/core/tool-search/index.js";
import { API_CATALOG, API_REQUESTS, type CatalogServer, type CatalogTool } from "../support/api-catalog.js";

/**
 * A tool that lists many words (every word of the requests below, and the nouns and verbs of
 * common APIs) in one field. It must not be offered for requests it has nothing to do with,
 * whichever field holds the list, and must not push out the tools that answer them.
 */
const COMMON = (
  "get list create update delete send search find add remove file user message event order ticket task " +
  "page card payment weather forecast calendar meeting issue pull request repo repository branch merge " +
  "invoice refund customer subscription bucket object upload download music play song playlist volume " +
  "incident call phone number dns record cache purge deal lead account balance charge verification code"
).split(" ");
const WORDS = [
  ...new Set([
    ...API_REQUESTS.flatMap(([request]) => request.toLowerCase().match(/[a-z]{3,}/g) ?? []),
    ...COMMON,
  ]),
];
const LIST = WORDS.join(" ");

const plain: CatalogTool = { name: "helper_tool", description: "A helper.", params: { x: "An input." } };
/**
 * Where the list is, and the most requests the tool may then be offered for: none through the
 * long fields, which dilute what they list; a name or a title is searched by its first six words,
 * which can still match the few requests that use those very words ("fork the octocat/hello-world
 * repository"), and no others.
 */
const STUFFED: Array<[string, number, CatalogServer]> = [
  ["description", 0, { name: "evil", tools: [{ ...plain, description: LIST }] }],
  [
    "description of 60 words",
    0,
    { name: "evil", tools: [{ ...plain, description: WORDS.slice(0, 60).join(" ") }] },
  ],
  [
    "parameter names",
    0,
    { name: "evil", tools: [{ ...plain, params: Object.fromEntries(WORDS.map((w) => [w, ""])) }] },
  ],
  ["a parameter's description", 0, { name: "evil", tools: [{ ...plain, params: { x: LIST } }] }],
  ["an enum", 0, { name: "evil", tools: [{ ...plain, enum: WORDS }] }],
  ["the server's instructions", 0, { name: "evil", instructions: LIST, tools: [plain] }],
  ["title", 3, { name: "evil", tools: [{ ...plain, title: LIST.slice(0, 200) }] }],
  ["name", 3, { name: "evil", tools: [{ ...plain, name: WORDS.join("_").slice(0, 128) }] }],
];

interface Tool extends SearchableTool {
  title?: string;
}

function toolsOf(servers: readonly CatalogServer[]): Tool[] {
  return servers.flatMap((server) =>
    server.tools.map((tool) => ({
      modelName: `${server.name}__${tool.name}`.replace(/[^\w-]/g, "_"),
      server: server.name,
      name: tool.name,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      modelDescription: tool.description,
      modelInputSchema: {
        type: "object",
        properties: Object.fromEntries(
          Object.entries(tool.params ?? {}).map(([name, description]) => [
            name,
            tool.enum ? { type: "string", enum: tool.enum } : { type: "string", description },
          ]),
        ),
      },
    })),
  );
}

/** For each request, the servers' tools its first request offers (mode always, a wide window). */
async function offers(servers: readonly CatalogServer[]): Promise<string[][]> {
  const tools = toolsOf(servers);
  const instructions = new Map(servers.map((server) => [server.name, server.instructions ?? ""]));
  const search = new ToolSearch(
    { ...DEFAULT_TOOL_SEARCH, mode: "always" },
    { instructions: (server) => instructions.get(server) ?? "" },
  );
  const all: string[][] = [];
  for (const [request] of API_REQUESTS) {
    const view = await search.select({
      tools,
      input: request,
      conversation: [],
      window: 200_000,
      size: () => 100,
      listSize: (list) => list.length * 100,
    });
    all.push(view.offered.map((entry) => `${entry.tool.server}/${entry.tool.name}`));
  }
  return all;
}

function answered(offered: readonly string[][]): number {
  return API_REQUESTS.filter(([, right], i) => right.some((tool) => offered[i]?.includes(tool))).length;
}

describe("a tool stuffed with words does not win unrelated requests (a 90-tool catalog, 44 requests)", () => {
  it("the catalog alone: most requests get a tool that answers them", async () => {
    expect(answered(await offers(API_CATALOG))).toBeGreaterThanOrEqual(38);
  });

  it.each(STUFFED)(
    "stuffed in its %s: offered for at most %i of the 44 requests, nothing pushed out",
    async (_field, most, evil) => {
      const before = answered(await offers(API_CATALOG));
      const offered = await offers([...API_CATALOG, evil]);
      const wins = offered.filter((list) => list.some((name) => name.startsWith("evil/"))).length;
      expect(wins).toBeLessThanOrEqual(most);
      expect(answered(offered)).toBe(before);
    },
  );

  it("twenty stuffed tools on one server take no more than a few of the slots", async () => {
    const evil: CatalogServer = {
      name: "evil",
      tools: Array.from({ length: 20 }, (_, i) => ({
        ...plain,
        name: `helper_${String.fromCharCode(97 + i)}`,
        description: [...WORDS.slice(i * 7), ...WORDS.slice(0, i * 7)].join(" "),
      })),
    };
    const before = answered(await offers(API_CATALOG));
    const offered = await offers([...API_CATALOG, evil]);
    const slots = offered.flat().filter((name) => name.startsWith("evil/")).length;
    expect(slots).toBeLessThanOrEqual(4);
    expect(answered(offered)).toBeGreaterThanOrEqual(before - 1);
  });
});
