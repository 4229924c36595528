import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stdoutNoiseSentence } from "../../src/core/mcp/stdout-noise.js";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * A server that exits before its answer is written out: raw JSON-RPC over stdio (2026) that, on
 * tools/call, writes the start of its answer with no line
 * end and exits 0, as `process.exit()` after an unflushed write does.
 */
const SERVER = String.raw`
import readline from "node:readline";
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const complete = { resultType: "complete", ttlMs: 0, cacheScope: "private" };
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  const cut = () => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { ...complete, content: [{ type: "text", text: "hi" }] } }).slice(0, 60), () => process.exit(0));
  if (m.method === "server/discover") {
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
  it("is told as a message the server exited before finishing, not as logging on stdout", async () => {
    const call = await runCli(["call", "echo", "--", process.execPath, script], {
      cwd: path.dirname(script),
      env: cleanEnv(),
    });
    expect(call.code).toBe(4);
    expect(call.stderr).toContain(
      'server "cut" exited before it finished writing a JSON-RPC message to stdout (the line has no end): "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,',
    );
    expect(call.stderr).not.toContain("log to stderr");
  });

  it("is told so by doctor's stdout step too", async () => {
    const run = await runCli(["doctor", "--", process.execPath, script], {
      cwd: path.dirname(script),
      env: cleanEnv(),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "✗ stdout         a JSON-RPC message on stdout the server exited before it finished writing (no line end); exit only once stdout has drained (process.exit() drops a write still pending on a pipe):\n",
    );
    expect(run.stdout).not.toContain("log to stderr");
  });

  it("tells the same line written mid-run, a logger's cut copy, as logging on stdout", () => {
    const line = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"te';
    expect(stdoutNoiseSentence("s", line)).toContain("which is for JSON-RPC only (log to stderr)");
    expect(stdoutNoiseSentence("s", "listening on 3000", true)).toContain("log to stderr");
    // A whole JSON log object left without its line end was finished; a cut one behind a BOM was not.
    expect(stdoutNoiseSentence("s", '{"error":"db unreachable"}', true)).toContain("log to stderr");
    expect(stdoutNoiseSentence("s", `\uFEFF${line}`, true)).toContain("exited before it finished writing");
  });
});
