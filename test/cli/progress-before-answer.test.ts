import { describe, expect, it } from "vitest";
import { raw2025ServerScript, rawServerProject, WORK_TOOL } from "../support/raw-2025-server.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/**
 * A 2025 server whose tool reports its progress three times and answers in the same write, as
 * a fast tool does: all four reach mcpterm in one read.
 */
const FAST_PROGRESS = raw2025ServerScript({
  tools: [WORK_TOOL],
  call: `
    const progressToken = message.params._meta?.progressToken;
    const steps = [1, 2, 3].map((progress) => line({ method: "notifications/progress", params: { progressToken, progress, total: 3, message: "step " + progress } }));
    process.stdout.write(steps.join("") + line({ id: message.id, result: { content: [{ type: "text", text: "done" }] } }));`,
});

describe("progress a server sends just before its answer", () => {
  it("is all reported, not dropped with the request it belongs to", async () => {
    const dir = await rawServerProject("fast", FAST_PROGRESS);
    const run = await runCli(trustingConfig(["call", "fast/work"]), { cwd: dir, env: cleanEnv() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("done");
    for (const step of [1, 2, 3]) expect(run.stderr).toContain(`step ${step}`);
  });
});

describe("an answer a server writes without a line break before it exits", () => {
  it("reaches its request before the closed connection does", async () => {
    const dir = await rawServerProject(
      "last",
      raw2025ServerScript({
        tools: [WORK_TOOL],
        call: `process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "final answer" }] } }), () => process.exit(0));`,
      }),
    );
    const run = await runCli(trustingConfig(["call", "last/work"]), { cwd: dir, env: cleanEnv() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("final answer");
  });
});

describe("a line a server was writing when mcpterm stopped it", () => {
  it("is not told as the server's stdout noise", async () => {
    const dir = await rawServerProject(
      "slow",
      raw2025ServerScript({
        tools: [WORK_TOOL],
        call: `process.stdout.write('{"jsonrpc":"2.0","method":"notifications/message"');`,
      }),
      { timeoutMs: 1000 },
    );
    const run = await runCli(trustingConfig(["call", "slow/work"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/did not answer within 1000 ms/);
    expect(run.stderr).not.toMatch(/stdout/);
  });
});
