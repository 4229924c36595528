import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv } from "../support/run-cli.js";

let client: Client;
let transport: StdioClientTransport;
let dir: string;

beforeAll(async () => {
  dir = await tempDir("mcpterm-serve-");
  await mkdir(path.join(dir, "knowledge_base"));
  await writeFile(
    path.join(dir, "knowledge_base", "oncall.md"),
    "# On-call\n\n## Paging\n\nPage the database owner when replication lag passes five minutes.\n",
  );
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve"],
    cwd: dir,
    env: cleanEnv() as Record<string, string>,
    stderr: "pipe",
  });
  client = new Client({ name: "test", version: "1" });
  await client.connect(transport);
});

afterAll(async () => {
  await client.close();
});

describe("mcpterm serve", () => {
  it("offers the knowledge base as read-only MCP tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint])).toEqual([
      ["search_knowledge_base", true],
      ["knowledge_base_stats", true],
    ]);
  });

  it("answers a search with cited passages, as text and as structured content", async () => {
    const result = await client.callTool({
      name: "search_knowledge_base",
      arguments: { query: "replication lag" },
    });
    const hits = (
      result.structuredContent as { hits: Array<{ path: string; startLine: number; text: string }> }
    ).hits;
    expect(hits[0]).toMatchObject({ path: "oncall.md", startLine: 1 });
    expect(hits[0]?.text).toContain("replication lag");
    expect(JSON.stringify(result.content)).toMatch(/\[1\] oncall\.md:1-\d+/);
  });

  it("exits when the client goes away", async () => {
    const pid = transport.pid;
    expect(pid).toBeTypeOf("number");
    await client.close();
    expect(await waitForNoProcesses(`${CLI} serve`)).toEqual([]);
  });
});
