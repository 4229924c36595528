import { describe, expect, it } from "vitest";
import { rawServerProject } from "../support/raw-2025-server.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/** A 2025 server that throws on a method it does not know, as many do, and so dies on the 2026 probe. */
const SCRIPT = String.raw`
import { createInterface } from "node:readline";
const answer = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\n");
function handle(message) {
  if (message.method === "initialize")
    return answer(message.id, { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "p", version: "1" } });
  if (message.method === "tools/list")
    return answer(message.id, { tools: [{ name: "work", description: "Works.", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }] });
  if (message.method === "tools/call") return answer(message.id, { content: [{ type: "text", text: "worked" }] });
  throw new Error("unknown method " + message.method);
}
createInterface({ input: process.stdin }).on("line", (text) => {
  const message = JSON.parse(text);
  if (message.id !== undefined) handle(message);
});
`;

describe("a 2025 server whose process dies on the server/discover probe", () => {
  it("is used, and its crash is told by tools' lint with the error line, not hidden", async () => {
    const dir = await rawServerProject("p", SCRIPT);
    const tools = await runCli(trustingConfig(["tools"]), { cwd: dir, env: cleanEnv() });
    expect(tools.code).toBe(0);
    expect(tools.stdout).toMatch(/^p: connected/);
    expect(tools.stdout).toContain("  work  [read_only");
    expect(tools.stdout).toMatch(
      /! warning probe-exited {2}The server's process exited \(code 1\): Error: unknown method server\/discover .*when sent server\/discover .*answer a method you do not know with JSON-RPC error -32601/,
    );
    const call = await runCli(trustingConfig(["call", "p/work"]), { cwd: dir, env: cleanEnv() });
    expect(call.code).toBe(0);
    expect(call.stdout).toBe("worked\n");
  });

  it("is told by doctor's stderr step too, and its restart counts in the handshake's time", async () => {
    // It takes 400 ms to die: connecting took at least that, whatever initialize took after it.
    const slowDeath = SCRIPT.replace(
      'throw new Error("unknown method " + message.method);',
      'setTimeout(() => { throw new Error("unknown method " + message.method); }, 400);',
    );
    expect(slowDeath).not.toBe(SCRIPT);
    const dir = await rawServerProject("p", slowDeath);
    const run = await runCli(trustingConfig(["doctor", "--json", "--no-calls"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    const report = JSON.parse(run.stdout) as {
      servers: Array<{
        steps: Array<{ step: string; status: string; summary: string; facts: Record<string, unknown> }>;
      }>;
    };
    const steps = Object.fromEntries((report.servers[0]?.steps ?? []).map((step) => [step.step, step]));
    expect(steps.stderr).toMatchObject({ status: "warning" });
    expect(steps.stderr?.summary).toMatch(
      /^the first process exited \(code 1\): Error: unknown method server\/discover .*on server\/discover \(mcpterm's 2026-07-28 probe\) and was started again/,
    );
    // From the probe's going out, through the second process's start, to initialize's answer.
    expect(steps.handshake?.facts.ms).toBeGreaterThanOrEqual(400);
  });
});
