import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cleanEnv, runCli } from "../support/run-cli.js";

/** A 2025 server whose tools/list answer is not valid MCP at all: no array, a number for a cursor. */
const SERVER = `
import readline from "node:readline";
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize")
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "z", version: "1" } } });
  else if (m.method === "tools/list") send({ jsonrpc: "2.0", id: m.id, result: { tools: "nope", nextCursor: 5 } });
  else if (m.id !== undefined) send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "no such method" } });
});
`;

describe("a tools/list answer the SDK rejects", () => {
  it("is named in one line per server, path by path, not as a JSON dump", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "mcpterm-invalid-result-"));
    writeFileSync(path.join(dir, "server.mjs"), SERVER);
    const run = await runCli(["tools", "--", process.execPath, "server.mjs"], { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(4);
    const line = run.stdout.split("\n").find((text) => text.includes("failed"));
    expect(line).toMatch(/Invalid result for tools\/list: .*nextCursor: expected string, received number/);
    expect(line).toContain("tools: expected array, received string");
    expect(run.stdout + run.stderr).not.toContain('"code": "invalid_type"');
  });
});
