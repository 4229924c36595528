import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EmbeddingsClient } from "../../src/core/kb/embeddings-client.js";
import {
  conversationQuery,
  ToolSearch,
  ToolVectors,
  type SearchableTool,
} from "../../src/core/tool-search/index.js";
import {
  startScriptedEmbeddingsServer,
  type ScriptedEmbeddingsServer,
} from "../support/scripted-embeddings-server.js";

let endpoint: ScriptedEmbeddingsServer;
beforeEach(async () => {
  endpoint = await startScriptedEmbeddingsServer();
});
afterEach(async () => {
  await endpoint.close();
});

function tool(name: string, description: string): SearchableTool {
  return { modelName: `s__${name}`, server: "s", name, modelDescription: description, modelInputSchema: {} };
}

// The scripted endpoint puts "automobile" and "vehicle" in one dimension: a meaning no word shares.
const TOOLS = [
  tool("register_vehicle", "Register a vehicle with the licensing office."),
  tool("adopt_kitten", "Find a kitten to adopt."),
  tool("release_notes", "Write the notes of a release."),
];

function search(warnings: string[]): ToolSearch {
  const client = new EmbeddingsClient({ model: "m", baseUrl: endpoint.baseUrl, apiKey: undefined });
  return new ToolSearch(undefined, { vectors: new ToolVectors(client, (text) => warnings.push(text)) });
}

const rank = (tools: ToolSearch, text: string) =>
  tools.rank(TOOLS, conversationQuery(text, [{ role: "user", content: text }]));

describe("tool search with kb.embeddings", () => {
  it("finds a tool by meaning when no word matches, with no matched words", async () => {
    const warnings: string[] = [];
    const ranked = await rank(search(warnings), "my automobile papers");
    expect(ranked[0]).toMatchObject({ tool: { name: "register_vehicle" }, matched: [] });
    expect(warnings).toEqual([]);
  });

  it("keeps a clear keyword winner first", async () => {
    const ranked = await rank(search([]), "release notes for the vehicle");
    expect(ranked[0]?.tool.name).toBe("release_notes");
  });

  it("embeds each tool once, then only the request", async () => {
    const tools = search([]);
    await rank(tools, "automobile");
    await rank(tools, "kitten");
    expect(endpoint.requests.map((request) => request.inputs.length)).toEqual([3, 1, 1]);
  });

  it("says once that embeddings are off when the endpoint fails, and ranks by keywords", async () => {
    endpoint.behave("error");
    const warnings: string[] = [];
    const tools = search(warnings);
    expect((await rank(tools, "adopt a kitten"))[0]?.tool.name).toBe("adopt_kitten");
    expect(await rank(tools, "my automobile papers")).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^Embeddings are off for tool search this session: .*; tools are ranked by keywords only\.$/,
    );
  });
});
