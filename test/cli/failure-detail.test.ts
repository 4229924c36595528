import { describe, expect, it } from "vitest";
import { tempDir } from "../support/fixtures.js";
import { FAKE_LINEAR_KEY } from "../support/fake-secrets.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * A 2025 stdio server written by hand: after answering tools/list it writes a line to stderr a
 * moment later (a log of that listing, not of any call), and it fails its one tool and its one
 * prompt with a JSON-RPC error whose data, like the stderr line before it, holds a key only the
 * full secret rules know. It reads nothing more until the listing's line is out: a call that
 * came within that moment would be answered first, and the line would be the call's.
 */
const SERVER = [
  "const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');",
  `const key = ${JSON.stringify(FAKE_LINEAR_KEY)};`,
  "process.stderr.write('a partial line from start-up, never ended ');",
  "let ready = Promise.resolve();",
  "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => { ready = ready.then(() => handle(line)); });",
  "function handle(line) {",
  "  const m = JSON.parse(line);",
  "  if (m.id === undefined) return;",
  "  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {}, prompts: {} }, serverInfo: { name: 'raw', version: '1' } } });",
  "  if (m.method === 'tools/list') { send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'fail', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] } }); return new Promise((done) => setTimeout(() => { process.stderr.write('LISTING-LOG: listed 1 tool\\n'); done(); }, 0)); }",
  "  if (m.method === 'prompts/list') return send({ jsonrpc: '2.0', id: m.id, result: { prompts: [{ name: 'p' }] } });",
  "  if (m.method === 'tools/call' || m.method === 'prompts/get') {",
  "    process.stderr.write('failing with ' + key + '\\n');",
  "    return send({ jsonrpc: '2.0', id: m.id, error: { code: -32603, message: 'it broke', data: { key } } });",
  "  }",
  "  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });",
  "}",
].join("\n");

const run = async (...args: string[]) =>
  runCli([...args, "--", process.execPath, "-e", SERVER], { cwd: await tempDir(), env: cleanEnv() });

describe("the detail of a failed request", () => {
  it.each([
    ["call", ["call", "fail", "--yes"]],
    ["prompts", ["prompts", "p"]],
  ])("%s: redacted by the full rules, and only what the server wrote for it", async (_name, args) => {
    const failed = await run(...args);
    expect(failed.code).toBe(1);
    expect(failed.stdout + failed.stderr).not.toContain(FAKE_LINEAR_KEY);
    expect(failed.stderr).toBe(
      'mcpterm: it broke (JSON-RPC error -32603, data: {"key":"[REDACTED]"}); stderr during the request: failing with [REDACTED]\n',
    );
  });

  it("call --json: the same, as data", async () => {
    const failed = await run("call", "fail", "--yes", "--json");
    expect(failed.stdout).not.toContain(FAKE_LINEAR_KEY);
    expect(JSON.parse(failed.stdout)).toMatchObject({
      jsonRpcError: { code: -32603, data: { key: "[REDACTED]" } },
      stderr: ["failing with [REDACTED]"],
    });
  });
});
