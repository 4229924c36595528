import { describe, expect, it } from "vitest";
import { tempDir } from "../support/fixtures.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * A server that logs an error as it answers is often saying why the answer is wrong; a session
 * shows such a message, and `call` used to drop it. Lower levels stay out (`/mcp logs` and
 * `mcpterm dev` show every level).
 */
describe("a log message of error level during a command", () => {
  const logging = (text: string, times = 1): string[] => [
    process.execPath,
    "-e",
    [
      "const text = process.argv[1];",
      "const times = Number(process.argv[2]);",
      "const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');",
      "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {",
      "  const m = JSON.parse(line);",
      "  if (m.id === undefined) return;",
      "  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {}, logging: {} }, serverInfo: { name: 'raw', version: '1' } } });",
      "  if (m.method === 'tools/list') return send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'echo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] } });",
      "  if (m.method === 'tools/call') {",
      "    for (let n = 1; n <= times; n += 1) send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'critical', logger: 'db', data: times > 1 ? `${text} ${n}` : text } });",
      "    send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'db', data: 'retrying' } });",
      "    return send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'partial' }] } });",
      "  }",
      "  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });",
      "});",
    ].join("\n"),
    text,
    String(times),
  ];

  it("is a warning on stderr of `call`, redacted and stripped of terminal controls", async () => {
    const cwd = await tempDir();
    const run = await runCli(
      ["call", "echo", "--", ...logging(`pool exhausted \u001b[2J with key ${FAKE_OPENAI_KEY}`)],
      { cwd, env: cleanEnv() },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("partial\n");
    expect(run.stderr).toContain(
      'warning: server "node" logged critical (db): pool exhausted  with key [REDACTED]\n',
    );
    expect(run.stderr).not.toContain("retrying");
    expect(run.stderr).not.toContain("\u001b");
  });

  it("stops after 20 of them per server, saying so once, so a flood cannot bury the answer", async () => {
    const cwd = await tempDir();
    const run = await runCli(["call", "echo", "--", ...logging("row failed", 500)], { cwd, env: cleanEnv() });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("partial\n");
    const lines = run.stderr.split("\n").filter((line) => line.startsWith("warning:"));
    expect(lines).toHaveLength(21);
    expect(lines[19]).toBe('warning: server "node" logged critical (db): row failed 20');
    expect(lines[20]).toBe(
      'warning: server "node" logged more errors; they are not shown here (mcpterm dev shows every one).',
    );
  });
});
