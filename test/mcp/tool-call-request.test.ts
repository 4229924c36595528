import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client, type Tool } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_STARTUP_TIMEOUT_MS } from "../../src/core/config/config-types.js";
import { CLIENT_CAPABILITIES } from "../../src/core/mcp/client-capabilities.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { versionNegotiation } from "../../src/core/mcp/protocol-era.js";
import { compactSchemaIssues } from "../../src/core/schema-issues.js";
import { serverConfig, tempDir } from "../support/fixtures.js";

/**
 * On a 2026 stdio connection a tools/call goes out as a plain request checked against the SDK's
 * CallToolResult schema, not through the SDK's callTool (tool-call-request.ts). What a call
 * brings must not change with that: this raw JSON-RPC server answers each tool with a result of
 * its own, valid or not, and each answer is compared with what the SDK's own Client makes of it
 * over the same revision, the definition handed over without its outputSchema as mcpterm does.
 * The server speaks 2026 only when started with `modern`, else 2025, where callTool stays.
 */
const SERVER = String.raw`
import readline from "node:readline";
import { appendFileSync } from "node:fs";
const modern = process.argv[2] === "modern";
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const complete = modern ? { resultType: "complete" } : {};
const listed = modern ? { ttlMs: 0, cacheScope: "private" } : {};
const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const RESULTS = {
  rich: {
    content: [
      { type: "text", text: "three parts", annotations: { audience: ["user"], priority: 0.5 }, extra: 1 },
      { type: "image", mimeType: "image/png", data: png },
      { type: "resource_link", uri: "file:///notes.txt", name: "notes", mimeType: "text/plain" },
      { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "embedded" } },
    ],
    structuredContent: { city: "Lisbon", days: [1, 2] },
    _meta: { "example.com/trace": "abc" },
    extra: { kept: true },
  },
  structured_array: { content: [{ type: "text", text: "[1,2]" }], structuredContent: [1, 2] },
  structured_number: { content: [], structuredContent: 7 },
  failed: { content: [{ type: "text", text: "the station is offline" }], isError: true },
  no_content: {},
  empty: { content: [] },
  text_not_string: { content: [{ type: "text", text: 5 }] },
  content_not_array: { content: "just text" },
  unknown_block: { content: [{ type: "hologram", data: "x" }] },
  is_error_string: { content: [], isError: "yes" },
  foreign_family: { task: { taskId: "t1", status: "working" } },
};
const tools = [...Object.keys(RESULTS), "mismatch"].map((name) => ({ name, inputSchema: { type: "object", properties: {} }, annotations: { readOnlyHint: true } }));
const log = process.argv[3];
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (log) appendFileSync(log, m.method + "\n");
  const ok = (result) => send({ jsonrpc: "2.0", id: m.id, result: { ...complete, ...result } });
  switch (m.method) {
    case "initialize":
      return ok({ protocolVersion: "2025-11-25", serverInfo: { name: "raw", version: "1" }, capabilities: { tools: {} } });
    case "server/discover":
      if (!modern) return send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "unknown method" } });
      return ok({ supportedVersions: ["2026-07-28"], serverInfo: { name: "raw", version: "1" }, capabilities: { tools: {} } });
    case "tools/list":
      return ok({ ...listed, tools });
    case "tools/call":
      if (m.params.name === "mismatch")
        return send({ jsonrpc: "2.0", id: m.id, error: { code: -32020, message: "header Mcp-Param-Region is missing" } });
      return ok(RESULTS[m.params.name]);
    default:
      if (m.id !== undefined) ok({});
  }
});
`;

const ERAS = ["modern", "legacy"] as const;
const TOOLS = [
  "rich",
  "structured_array",
  "structured_number",
  "failed",
  "no_content",
  "empty",
  "text_not_string",
  "content_not_array",
  "unknown_block",
  "is_error_string",
  "foreign_family",
];

let dir: string;
const managers = new Map<string, McpManager>();
const clients = new Map<string, Client>();

/** The server in `era`; with `log`, it writes there the method of each message it receives. */
function launch(era: string, log?: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [path.join(dir, "server.mjs"), era, ...(log ? [log] : [])] };
}

function methodLog(era: string): string {
  return path.join(dir, `${era}.log`);
}

/** The SDK's Client as mcpterm settles the revision: 2026 first, 2025 if the server has no server/discover. */
async function sdkClient(era: string): Promise<Client> {
  const client = new Client(
    { name: "reference", version: "1" },
    {
      versionNegotiation: versionNegotiation("auto", "stdio", DEFAULT_STARTUP_TIMEOUT_MS),
      capabilities: CLIENT_CAPABILITIES,
    },
  );
  await client.connect(new StdioClientTransport({ ...launch(era), stderr: "pipe" }));
  return client;
}

/** What a promise came to: its value, or that it failed. */
async function settled(call: () => Promise<unknown>): Promise<{ value: unknown } | { failed: string }> {
  try {
    return { value: await call() };
  } catch (error) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
}

beforeAll(async () => {
  dir = await tempDir();
  await writeFile(path.join(dir, "server.mjs"), SERVER);
  for (const era of ERAS) {
    const manager = new McpManager([serverConfig("raw", launch(era, methodLog(era)))], {
      parentEnv: process.env,
    });
    managers.set(era, manager);
    clients.set(era, await sdkClient(era));
    await manager.start();
  }
});

afterAll(async () => {
  await Promise.all([...managers.values()].map((manager) => manager.close()));
  await Promise.all([...clients.values()].map((client) => client.close()));
});

describe.each(ERAS)("a tools/call answered on %s stdio", (era) => {
  it("settles on the revision it is about", () => {
    expect(managers.get(era)?.servers()[0]?.era).toBe(era);
    expect(clients.get(era)?.getProtocolEra()).toBe(era);
  });

  it.each(TOOLS)("%s: the result, or its refusal, is the SDK callTool's", async (tool) => {
    const client = clients.get(era);
    const manager = managers.get(era);
    if (!client || !manager) throw new Error("not connected");
    const definition: Tool = { name: tool, inputSchema: { type: "object", properties: {} } };
    const expected = await settled(() =>
      client.callTool({ name: tool, arguments: {} }, { toolDefinition: definition }),
    );
    const got = await settled(() => manager.callTool("raw", tool, {}));
    if ("value" in expected) {
      expect(got).toEqual(expected);
      return;
    }
    // mcpterm words a refusal its own way, around the SDK's reason put in a line (schema-issues.ts).
    expect(got).toHaveProperty("failed");
    expect("failed" in got && got.failed).toContain(compactSchemaIssues(expected.failed));
  });
});

describe.each(ERAS)("a header mismatch (-32020) from a %s stdio server", (era) => {
  it("fails the call, sent once: a connection that sends no headers cannot have one missing", async () => {
    const manager = managers.get(era);
    if (!manager) throw new Error("not connected");
    const before = (await readFile(methodLog(era), "utf8")).split("\n");
    await expect(manager.callTool("raw", "mismatch", {})).rejects.toThrow(/Mcp-Param-Region is missing/);
    const after = (await readFile(methodLog(era), "utf8")).split("\n").slice(before.length - 1);
    expect(after.filter((method) => method === "tools/call")).toEqual(["tools/call"]);
    expect(after).not.toContain("tools/list");
  });
});
