import { describe, expect, it } from "vitest";
import { formatBytes } from "../../src/core/text/units.js";
import { MAX_MESSAGE_SIZE } from "../../src/core/mcp/message-limit.js";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * A stdio server that floods one message past the limit, at the request named (`list`: its tool
 * list, `call`: the call): mcpterm stops it, and every command says so as the server's fault,
 * not by the exit or the closed connection that follow, nor as stray stdout of the server's.
 */
function floodingServer(at: "list" | "call"): string[] {
  const script = [
    "const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');",
    "const flood = () => { const piece = 'x'.repeat(65536); setInterval(() => process.stdout.write(piece), 0); };",
    "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {",
    "  const m = JSON.parse(line);",
    "  if (m.id === undefined) return;",
    "  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'flood', version: '1' } } });",
    `  if (m.method === 'tools/list') return ${at === "list" ? "flood()" : "send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'dump', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] } })"};`,
    "  if (m.method === 'tools/call') return flood();",
    "  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });",
    "});",
  ].join("\n");
  return ["--", process.execPath, "-e", script];
}

const CUT_OFF = `the server sent one message of more than ${formatBytes(MAX_MESSAGE_SIZE)}; mcpterm stopped it`;

describe("a stdio server that floods one message past the limit", () => {
  it("in a call: call says so, with --json too, and exits 4", async () => {
    const run = await runCli(["call", "dump", "--json", ...floodingServer("call")], {
      cwd: await tempDir(),
      env: cleanEnv(),
    });
    expect(run.code).toBe(4);
    const report = JSON.parse(run.stdout) as { error: string; serverExited?: unknown };
    expect(report.error).toMatch(new RegExp(`^server "\\S+": ${CUT_OFF.replace(/[.()]/g, "\\$&")}$`));
    expect(run.stderr).toContain(CUT_OFF);
    expect(run.stderr).not.toMatch(/exited \(code/);
  });

  it("in its tool list: tools says so, and lint does not blame the server's stdout for mcpterm's words", async () => {
    const run = await runCli(["tools", ...floodingServer("list")], { cwd: await tempDir(), env: cleanEnv() });
    expect(run.code).toBe(4);
    expect(run.stdout + run.stderr).toContain(`failed — ${CUT_OFF}`);
    expect(run.stdout + run.stderr).not.toContain("stdout-noise");
    expect(run.stdout + run.stderr).not.toContain("Connection closed");
  });
});
