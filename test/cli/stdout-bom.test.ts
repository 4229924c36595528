import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/** A 2025 server that writes a byte-order mark before every message. */
const BOM_SERVER = String.raw`
import { createInterface } from "node:readline";
const line = (message) => "\uFEFF" + JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n";
createInterface({ input: process.stdin }).on("line", (text) => {
  const message = JSON.parse(text);
  if (message.id === undefined) return;
  if (message.method === "initialize")
    process.stdout.write(line({ id: message.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "bom", version: "1" } } }));
  else if (message.method === "tools/list")
    process.stdout.write(line({ id: message.id, result: { tools: [{ name: "echo", description: "Echo.", inputSchema: { type: "object" } }] } }));
  else process.stdout.write(line({ id: message.id, error: { code: -32601, message: "Method not found" } }));
});
`;

describe("a server that writes a byte-order mark before its messages", () => {
  it("is read, and told: the mark shown where it stands, not hidden in a line that looks valid", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "bom.mjs"), BOM_SERVER);
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { bom: { command: process.execPath, args: [path.join(dir, "bom.mjs")] } },
    });
    const run = await runCli(trustingConfig(["tools"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^bom: connected in \d+ ms$/m);
    expect(run.stdout).toContain("echo");
    expect(run.stdout).toMatch(/stdout-noise .*\(first: "⟨U\+FEFF⟩\{\\"jsonrpc\\"/);
  });
});
