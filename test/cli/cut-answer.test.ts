import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stdoutNoiseSentence } from "../../src/core/mcp/stdout-noise.js";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * A server that exits before its answer is written out: raw JSON-RPC over stdio (2026) that, on
 * tools/call (or, with `start`, on server/discover), writes the start of its answer with no line
 * end and exits 0, as `process.exit()` after an unflushed write does.
 */
const SERVER = String.raw`
import readline from "node:readline";
const when = process.argv[2];
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const complete = { resultType: "complete", ttlMs: 0, cacheScope: "private" };
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  const cut = () => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { ...complete, content: [{ type: "text", text: "hi" }] } }).slice(0, 60), () => process.exit(0));
  if (m.method === "server/discover") {
    if (when === "start") return cut();
    return send({ jsonrpc: "2.0", id: m.id, result: { ...complete, supportedVersions: ["2026-07-28"], capabilities: { tools: {} } } });
  }
  if (m.method === "tools/list")
    return send({ jsonrpc: "2.0", id: m.id, result: { ...complete, tools: [{ name: "echo", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }] } });
  if (m.method === "tools/call") return cut();
  if (m.id !== undefined) send({ jsonrpc: "2.0", id: m.id, result: complete });
});
`;

let script: string;
beforeAll(async () => {
  const dir = await tempDir();
  script = path.join(dir, "cut.mjs");
  await writeFile(script, SERVER);
});

describe("an answer cut off by the server's exit", () => {
  it("is told as a message cut off, not as logging on stdout, by call and by doctor", async () => {
    const call = await runCli(["call", "echo", "--", process.execPath, script, "call"], {
      cwd: path.dirname(script),
      env: cleanEnv(),
    });
    expect(call.code).toBe(4);
    expect(call.stderr).toContain(
      "wrote a JSON-RPC message to stdout that is not whole (cut off, often by the process exiting",
    );
    expect(call.stderr).not.toContain("log to stderr");
    const doctor = await runCli(["doctor", "--", process.execPath, script, "start"], {
      cwd: path.dirname(script),
      env: cleanEnv(),
    });
    expect(doctor.stdout).toMatch(/✗ stdout\s+a JSON-RPC message on stdout that is not whole/);
    expect(doctor.stdout).not.toContain("log to stderr");
  });

  it("tells a log line as one still", () => {
    expect(stdoutNoiseSentence("s", "listening on 3000")).toBe(
      'server "s" wrote to stdout, which is for JSON-RPC only (log to stderr): "listening on 3000"',
    );
    expect(stdoutNoiseSentence("s", '{"level":30,"msg":"jsonrpc ready"}')).toContain("log to stderr");
    // Whole JSON that is still no message, and a message behind a byte-order mark, are not cut off.
    const nullId = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}';
    expect(stdoutNoiseSentence("s", nullId)).toContain("log to stderr");
    expect(stdoutNoiseSentence("s", '\uFEFF{"jsonrpc":"2.0","id":1,"result":{}}')).toContain("log to stderr");
  });
});
