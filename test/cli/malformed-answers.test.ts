import { describe, expect, it } from "vitest";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { answersToMalformed, answerToUnparsable } from "../../src/core/mcp/malformed-answer.js";
import type { WireFrame } from "../../src/core/mcp/types.js";
import { serverConfig, tempDir } from "../support/fixtures.js";
import { FAKE_LINEAR_KEY } from "../support/fake-secrets.js";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { rawAnswerCommand } from "../support/raw-answer-server.js";
import { raw2025ServerScript, rawServerProject, WORK_TOOL } from "../support/raw-2025-server.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/**
 * A stdio server's answer that is JSON and answers a request but is not JSON-RPC fails that
 * request at once, as the server breaking the protocol; it used to be taken for stray stdout,
 * the call waited out its timeout and a read-only call was sent again three times.
 */
const BROKEN: Array<[string, string]> = [
  ['{"jsonrpc":"2.0","id":"ID","result":"hello"}', "its result is a string, not an object"],
  ['{"jsonrpc":"2.0","id":"ID","result":null}', "its result is null, not an object"],
  ['{"jsonrpc":"2.0","id":"ID"}', "it has neither a result nor an error"],
  [
    '{"jsonrpc":"2.0","id":"ID","result":{"content":[]},"error":{"code":1,"message":"x"}}',
    "it has both a result and an error",
  ],
  ['{"jsonrpc":"2.0","id":"ID","error":"it broke"}', "its error is a string, not an object"],
  ['{"jsonrpc":"2.0","id":"ID","error":{"code":-32000}}', "its error has no message"],
  ['{"id":"ID","result":{"content":[]}}', 'its "jsonrpc" is not "2.0"'],
  [
    '[{"jsonrpc":"2.0","id":"ID","result":{"content":[]}}]',
    "it came in a JSON-RPC batch, which MCP does not allow",
  ],
  [
    '{"jsonrpc":"2.0","id":"ID","result":{"content":[]},"extra":1}',
    'it has members JSON-RPC does not define ("extra")',
  ],
  [
    '{"jsonrpc":"2.0","id":"ID","result":{"content":[],"_meta":5}}',
    "its result's _meta is a number, not an object",
  ],
];

const call = (answer: string, extra: string[] = []) =>
  tempDir().then((cwd) =>
    runCli(["call", "echo", ...extra, "--timeout", "60000", "--", ...rawAnswerCommand(answer)], {
      cwd,
      env: cleanEnv(),
    }),
  );

describe("an answer that is not JSON-RPC", () => {
  it.each(BROKEN)("mcpterm call of %s says what is wrong with it at once (exit 1)", async (answer, flaw) => {
    const run = await call(answer);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `mcpterm: server "node" broke the MCP protocol (a fault of the server, not retried): its answer to request 2 is not valid JSON-RPC: ${flaw}\n`,
    );
    expect(run.stdout).toBe("");
  });

  it.each([
    ["cut short", '{"jsonrpc":"2.0","id":"ID","result":{"content":[{"type":"text","text":"hi"}]}'],
    [
      "with a quote left unescaped",
      '{"jsonrpc":"2.0","id":"ID","result":{"content":[{"type":"text","text":"say "hi""}]}}',
    ],
    [
      "with a quote left unescaped, its id last (as the TypeScript SDK writes)",
      '{"result":{"content":[{"type":"text","text":"say "hi""}]},"jsonrpc":"2.0","id":"ID"}',
    ],
  ])(
    "mcpterm call of an answer %s says it is not JSON within seconds, not after the timeout",
    async (_name, answer) => {
      const run = await call(answer);
      expect(run.code).toBe(1);
      // The parser's own words vary with Node's version.
      expect(run.stderr).toMatch(
        /^mcpterm: server "node" broke the MCP protocol \(a fault of the server, not retried\): its answer to request 2 is not valid JSON-RPC: it is not valid JSON \([^\n]+\)\n$/,
      );
    },
  );

  it("is a protocol failure in --json, as every call without a result is reported there", async () => {
    const broken = await call('{"jsonrpc":"2.0","id":"ID","result":"hello"}', ["--json"]);
    const report = JSON.parse(broken.stdout) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(["server", "tool", "error", "failure"]);
    expect(report).toMatchObject({ server: "node", tool: "echo", failure: "protocol" });
    expect(report.error).toContain("its result is a string, not an object");
    const refused = await call(
      '{"jsonrpc":"2.0","id":"ID","error":{"code":-32000,"message":"the database is down"}}',
      ["--json"],
    );
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      error: "the database is down (JSON-RPC error -32000)",
      failure: "business",
      jsonRpcError: { code: -32000 },
    });
  });

  it("reports a server's error with what only the full secret rules know taken out, on stdout and stderr", async () => {
    const message = `upstream failed with ${FAKE_LINEAR_KEY}`;
    const answer = JSON.stringify({ jsonrpc: "2.0", id: "ID", error: { code: -32000, message } });
    const run = await call(answer, ["--json"]);
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).not.toContain(FAKE_LINEAR_KEY);
    expect((JSON.parse(run.stdout) as { error: string }).error).toBe(
      "upstream failed with [REDACTED] (JSON-RPC error -32000)",
    );
    expect(run.stderr).toBe("mcpterm: upstream failed with [REDACTED] (JSON-RPC error -32000)\n");

    // In the error's data too, in the sentence and in --json's copy of the error.
    const withData = JSON.stringify({
      jsonrpc: "2.0",
      id: "ID",
      error: { code: -32603, message: "upstream failed", data: { key: FAKE_LINEAR_KEY, retry: false } },
    });
    const data = await call(withData, ["--json"]);
    expect(`${data.stdout}${data.stderr}`).not.toContain(FAKE_LINEAR_KEY);
    expect((JSON.parse(data.stdout) as { jsonRpcError: unknown }).jsonRpcError).toEqual({
      code: -32603,
      data: { key: "[REDACTED]", retry: false },
    });
    expect(data.stderr).toBe(
      'mcpterm: upstream failed (JSON-RPC error -32603, data: {"key":"[REDACTED]","retry":false})\n',
    );
  });

  it("is sent once and fails as the server's fault, even for a read-only call that may be sent again", async () => {
    const [command, ...args] = rawAnswerCommand('{"jsonrpc":"2.0","id":"ID","result":[1,2]}');
    const frames: WireFrame[] = [];
    const manager = new McpManager([serverConfig("raw", { command, args, timeoutMs: 60_000 })], {
      parentEnv: process.env,
      onWire: (frame) => frames.push(frame),
    });
    try {
      await manager.start();
      const failed = await manager
        .callTool("raw", "echo", {}, { resendSafe: true })
        .catch((error: unknown) => error);
      expect(failed).toMatchObject({ failure: "protocol", retryable: false });
      const calls = frames.filter(
        (frame) =>
          frame.direction === "send" && (frame.message as { method?: string }).method === "tools/call",
      );
      expect(calls).toHaveLength(1);
      expect(manager.servers()[0]?.status).toBe("connected");
    } finally {
      await manager.close();
    }
  });

  it("does not fail a call for a logger's cut copy of its answer: the answer that follows is the call's", async () => {
    const dir = await rawServerProject(
      "raw",
      raw2025ServerScript({
        tools: [WORK_TOOL],
        call: String.raw`
          process.stdout.write('{"jsonrpc":"2.0","id":' + message.id + ',"result":{"content":[{"type":"text","text":"real ans... (cut by a logger)\n');
          process.stdout.write(line({ id: message.id, result: { content: [{ type: "text", text: "real answer" }] } }));
        `,
      }),
    );
    const run = await runCli(trustingConfig(["call", "raw/work"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("real answer\n");
    expect(run.stderr).toContain('warning: server "raw" wrote to stdout, which is for JSON-RPC only');
  });

  it("fails a call with the exit when the server dies after a broken answer line, the line kept as evidence", async () => {
    const dir = await rawServerProject(
      "raw",
      raw2025ServerScript({
        tools: [WORK_TOOL],
        call: String.raw`
          process.stdout.write('{"jsonrpc":"2.0","id":' + message.id + ',"result":{"content":[{"type":"text","text":"half\n');
          setTimeout(() => process.exit(3), 50);
        `,
      }),
    );
    const run = await runCli(trustingConfig(["call", "raw/work"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('warning: server "raw" wrote to stdout, which is for JSON-RPC only');
    expect(run.stderr).toMatch(/server "raw" exited \(code 3\)/);
  });

  it("leaves lines that answer nothing to be told as stray stdout", () => {
    for (const line of [
      "not json",
      // Not JSON, and not an answer either: a log line naming an id, a request cut short.
      '{level: "info", "id": 3, "result": "ok"',
      '[2026-12-04] {"jsonrpc":"2.0","id":3,"result":{',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{',
      '{"jsonrpc":"2.0","id":3,"progress":',
      // An id inside a result is an item's; an answer whose own id comes after its result is not read.
      '{"jsonrpc":"2.0","result":{"items":[{"id":3,"name":"cut',
      '{"result":{"content":[{"type":"text","text":"cut"}]},"jsonrpc":"2.0","id":3',
      "{}",
      '{"id":null,"result":{}}',
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      "[1,2]",
      '"text"',
    ]) {
      expect(answersToMalformed(line)).toBeUndefined();
      expect(answerToUnparsable(line)).toBeUndefined();
    }
    const [made] = answersToMalformed('{"jsonrpc":"2.0","id":7,"result":5}') ?? [];
    expect(made).toMatchObject({
      id: 7,
      error: {
        message: "its answer to request 7 is not valid JSON-RPC: its result is a number, not an object",
      },
    });
  });
});

/**
 * A server that answers a request with an id no request had: the SDK drops the answer, so the
 * request used to wait out its timeout and be reported as never answered, sending the server's
 * author to look for a hang. With one request waiting, that is the one it answered.
 */
describe("an answer with an id no request had", () => {
  /** A 2025-11-25 server by hand whose answers to `method` carry the request's id plus 1000. */
  const wrongIdServer = (method: string): string[] => [
    process.execPath,
    "-e",
    [
      "const wrong = process.argv[1];",
      "const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');",
      "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {",
      "  const m = JSON.parse(line);",
      "  if (m.id === undefined) return;",
      "  const id = m.method === wrong ? m.id + 1000 : m.id;",
      "  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } } });",
      "  if (m.method === 'tools/list') return send({ jsonrpc: '2.0', id, result: { tools: [{ name: 'echo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] } });",
      "  if (m.method === 'tools/call') return send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'hi' }] } });",
      "  send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });",
      "});",
    ].join("\n"),
    method,
  ];

  it("fails the call waiting for it, naming the id that came back (exit 1)", async () => {
    const cwd = await tempDir();
    // A minute to wait: without the check the call would wait it out and time the test out.
    const run = await runCli(["call", "echo", "--timeout", "60000", "--", ...wrongIdServer("tools/call")], {
      cwd,
      env: cleanEnv(),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'mcpterm: server "node" broke the MCP protocol (a fault of the server, not retried): it answered with id 1002, which no request had, and its tools/call request (id 2) got no answer of its own within 3 s: an answer must carry the id of the request it answers\n',
    );
    expect(run.stdout).toBe("");
  });

  it("fails a call to a 2026 server whose listen stream stays open meanwhile", async () => {
    const cwd = await tempDir();
    // A proxy in front of the 2026 fixture that adds 1000 to the id of each tools/call answer.
    const proxy = [
      process.execPath,
      "-e",
      [
        "const { spawn } = require('node:child_process');",
        "const readline = require('node:readline');",
        "const server = spawn(process.execPath, [process.argv[1]], { stdio: ['pipe', 'pipe', 'inherit'] });",
        "const calls = new Set();",
        "readline.createInterface({ input: process.stdin }).on('line', (line) => {",
        "  const m = JSON.parse(line);",
        "  if (m.method === 'tools/call') calls.add(m.id);",
        "  server.stdin.write(line + '\\n');",
        "});",
        "process.stdin.on('end', () => server.stdin.end());",
        "readline.createInterface({ input: server.stdout }).on('line', (line) => {",
        "  const m = JSON.parse(line);",
        "  if (m.method === undefined && calls.has(m.id)) m.id += 1000;",
        "  process.stdout.write(JSON.stringify(m) + '\\n');",
        "});",
        "server.on('exit', (code) => process.exit(code ?? 0));",
      ].join("\n"),
      compiledFixture("modern-server"),
    ];
    const run = await runCli(["call", "echo", '{"text":"hi"}', "--timeout", "60000", "--", ...proxy], {
      cwd,
      env: cleanEnv(),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^mcpterm: server "node" broke the MCP protocol \(a fault of the server, not retried\): it answered with id \d+, which no request had, and its tools\/call request \(id \d+\) got no answer of its own within 3 s/,
    );
  });

  it("fails the handshake in seconds, not 30, when it is initialize's answer", async () => {
    const cwd = await tempDir();
    const run = await runCli(["doctor", "--no-calls", "--", ...wrongIdServer("initialize")], {
      cwd,
      env: cleanEnv(),
    });
    expect(run.code).toBe(1);
    const handshake = run.stdout.split("\n").find((line) => line.includes("handshake")) ?? "";
    expect(handshake).toContain("✗");
    expect(handshake).toContain(
      "it answered with id 1000, which no request had, and its initialize request (id 0) got no answer of its own within 3 s",
    );
    expect(run.stdout).not.toContain("within 30000 ms");
  });
});
