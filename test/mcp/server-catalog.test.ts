import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { ResponseCache } from "../../src/core/mcp/response-cache.js";
import { ServerCatalog } from "../../src/core/mcp/server-catalog.js";

/** A real SDK server with one resource and one prompt, over the SDK's in-memory transport. */
async function connected(): Promise<{ server: McpServer; client: Client; listings: () => number }> {
  const server = new McpServer({ name: "catalog", version: "1" });
  let listings = 0;
  server.registerResource("readme", "mem://readme", { mimeType: "text/plain" }, () => ({
    contents: [{ uri: "mem://readme", text: "hi" }],
  }));
  server.registerPrompt("greet", { description: "Say hello" }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "hello" } }],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  // Counts the resources/list requests that reach the server.
  const handler = serverSide.onmessage;
  serverSide.onmessage = (message, extra) => {
    if ("method" in message && message.method === "resources/list") listings += 1;
    handler?.(message, extra);
  };
  const client = new Client({ name: "test", version: "1" });
  await client.connect(clientSide);
  return { server, client, listings: () => listings };
}

describe("ServerCatalog", () => {
  it("lists resources and prompts, and answers a flood of list_changed with at most two listings", async () => {
    const { server, client, listings } = await connected();
    const catalog = new ServerCatalog(client, 5000, () => undefined, new ResponseCache("catalog", undefined));
    await catalog.load();
    expect(catalog.snapshot().resources.map((resource) => resource.uri)).toEqual(["mem://readme"]);
    expect(catalog.snapshot().prompts.map((prompt) => prompt.name)).toEqual(["greet"]);
    expect(listings()).toBe(1);
    await Promise.all(Array.from({ length: 30 }, () => catalog.refresh("resources")));
    // The flood: one listing in flight, and one more for all 29 that arrived meanwhile; the
    // refresh below joins that one (and asks for one more after it).
    await catalog.refresh("resources");
    expect(listings()).toBeLessThanOrEqual(4);
    await client.close();
    await server.close();
  });
});
