import { describe, expect, it } from "vitest";
import { rawServerProject } from "../support/raw-2025-server.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/** A 2025 server whose resources/list answer breaks MCP (a name that is a number); its prompts are fine. */
const SCRIPT = String.raw`
import { createInterface } from "node:readline";
const answer = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\n");
createInterface({ input: process.stdin }).on("line", (text) => {
  const message = JSON.parse(text);
  if (message.id === undefined) return;
  if (message.method === "initialize")
    answer(message.id, { protocolVersion: "2025-11-25", capabilities: { tools: {}, resources: {}, prompts: {} }, serverInfo: { name: "r", version: "1" } });
  else if (message.method === "tools/list") answer(message.id, { tools: [] });
  else if (message.method === "resources/list")
    answer(message.id, { resources: [{ uri: "r://a", name: "a" }, { uri: "r://b", name: 5 }] });
  else if (message.method === "resources/templates/list") answer(message.id, { resourceTemplates: [] });
  else if (message.method === "prompts/list") answer(message.id, { prompts: [{ name: "hello" }] });
  else process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } }) + "\n");
});
`;

describe("a server whose resource listing breaks MCP", () => {
  it("fails mcpterm resources with exit 4 and why; mcpterm prompts, whose listing is fine, exits 0", async () => {
    const dir = await rawServerProject("r", SCRIPT);
    const resources = await runCli(trustingConfig(["resources"]), { cwd: dir, env: cleanEnv() });
    expect(resources.code).toBe(4);
    expect(resources.stdout).toMatch(/listing its resources failed: .*resources\.1\.name/);
    const json = await runCli(trustingConfig(["resources", "--json"]), { cwd: dir, env: cleanEnv() });
    expect(json.code).toBe(4);
    const prompts = await runCli(trustingConfig(["prompts"]), { cwd: dir, env: cleanEnv() });
    expect(prompts.code).toBe(0);
    expect(prompts.stdout).toContain("hello");
  });
});
