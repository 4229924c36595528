import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  LoggingMessageNotificationSchema,
  type LoggingMessageNotification,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import { cleanEnv } from "../support/run-cli.js";
import {
  embeddingsProject,
  startScriptedEmbeddingsServer,
  type ScriptedEmbeddingsServer,
} from "../support/scripted-embeddings-server.js";

const KEY = "sk-embed-SERVE-5b1c8e2f90";
let embeddings: ScriptedEmbeddingsServer;
let client: Client;
let stderr = "";
const logs: LoggingMessageNotification["params"][] = [];
const transportErrors: Error[] = [];

beforeAll(async () => {
  embeddings = await startScriptedEmbeddingsServer();
  const dir = await tempDir("mcpterm-serve-embed-");
  await embeddingsProject(dir, embeddings.baseUrl, {
    "garage.md": "# Garage\n\nAutomobile maintenance: change the oil every 10,000 km.\n",
    "kitchen.md": "# Kitchen\n\nDescale the kettle monthly.\n",
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve"],
    cwd: dir,
    env: cleanEnv({ MCPTERM_EMBEDDINGS_API_KEY: KEY }) as Record<string, string>,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  client = new Client({ name: "test", version: "1" });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => void logs.push(note.params));
  await client.connect(transport);
  // A line on stdout that is not JSON-RPC would land here.
  transport.onerror = (error) => void transportErrors.push(error);
});

afterAll(async () => {
  await client.close();
  await embeddings.close();
});

async function search(query: string): Promise<Array<{ path: string; matched: string[] }>> {
  const result = await client.callTool({ name: "search_knowledge_base", arguments: { query } });
  return (result.structuredContent as { hits: Array<{ path: string; matched: string[] }> }).hits;
}

describe("mcpterm serve with kb.embeddings", () => {
  it("says the search reaches nothing outside when the endpoint is on this machine", async () => {
    const { tools } = await client.listTools();
    const searchTool = tools.find((tool) => tool.name === "search_knowledge_base");
    expect(searchTool?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
  });

  it("marks the search open-world when its queries go to an endpoint elsewhere", async () => {
    const dir = await tempDir("mcpterm-serve-embed-away-");
    await mkdir(path.join(dir, "knowledge_base"));
    await writeFile(path.join(dir, "knowledge_base", "a.md"), "# A\n\nSome text.\n");
    const away = new Client({ name: "test", version: "1" });
    await away.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "serve"],
        cwd: dir,
        env: cleanEnv({
          MCPTERM_EMBEDDINGS_MODEL: "text-embedding-3-small",
          MCPTERM_EMBEDDINGS_BASE_URL: "http://embeddings.invalid/v1",
        }) as Record<string, string>,
        stderr: "pipe",
      }),
    );
    try {
      const { tools } = await away.listTools();
      const searchTool = tools.find((tool) => tool.name === "search_knowledge_base");
      expect(searchTool?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
      expect(tools.find((tool) => tool.name === "read_document")?.annotations?.openWorldHint).toBe(false);
    } finally {
      await away.close();
    }
  });

  it("finds a passage by meaning alone, with the key from the environment", async () => {
    const hits = await search("where do I take my car?");
    expect(hits.map((hit) => [hit.path, hit.matched])).toEqual([["garage.md", []]]);
    expect(embeddings.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
  });

  it("fills answer_with_sources by meaning too", async () => {
    const prompt = await client.getPrompt({
      name: "answer_with_sources",
      arguments: { question: "how often should my vehicle be serviced?" },
    });
    expect(JSON.stringify(prompt.messages)).toContain("garage.md");
  });

  it("falls back to keywords when the endpoint fails, warning once on stderr and in the log", async () => {
    await client.setLoggingLevel("warning");
    embeddings.behave("error");
    expect((await search("oil maintenance")).map((hit) => [hit.path, hit.matched])).toEqual([
      ["garage.md", ["oil", "maintenance"]],
    ]);
    expect(await search("where do I take my car?")).toEqual([]);
    const warnings = stderr.split("\n").filter((line) => line.includes("Embeddings are off"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^mcpterm serve: Embeddings are off .*answered HTTP 500/);
    expect(logs.filter((log) => String(log.data).includes("Embeddings are off"))).toMatchObject([
      { level: "warning" },
    ]);
    expect(stderr).not.toContain(KEY);
  });

  it("writes nothing but JSON-RPC on stdout", () => {
    expect(transportErrors).toEqual([]);
  });
});
