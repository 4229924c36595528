import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { raw2025ServerScript } from "../support/raw-2025-server.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/**
 * A 2025 server whose tool reports its progress three times and answers in the same write, as
 * a fast tool does: all four reach mcpterm in one read.
 */
const FAST_PROGRESS = raw2025ServerScript({
  tools: [{ name: "work", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }],
  call: `
    const progressToken = message.params._meta?.progressToken;
    const steps = [1, 2, 3].map((progress) => line({ method: "notifications/progress", params: { progressToken, progress, total: 3, message: "step " + progress } }));
    process.stdout.write(steps.join("") + line({ id: message.id, result: { content: [{ type: "text", text: "done" }] } }));`,
});

describe("progress a server sends just before its answer", () => {
  it("is all reported, not dropped with the request it belongs to", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "fast.mjs"), FAST_PROGRESS);
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { fast: { command: process.execPath, args: [path.join(dir, "fast.mjs")] } },
    });
    const run = await runCli(trustingConfig(["call", "fast/work"]), { cwd: dir, env: cleanEnv() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("done");
    for (const step of [1, 2, 3]) expect(run.stderr).toContain(`step ${step}`);
  });
});

describe("an answer a server writes without a line break before it exits", () => {
  it("reaches its request before the closed connection does", async () => {
    const dir = await tempDir();
    await writeFile(
      path.join(dir, "last.mjs"),
      raw2025ServerScript({
        tools: [{ name: "work", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }],
        call: `process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "final answer" }] } }), () => process.exit(0));`,
      }),
    );
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { last: { command: process.execPath, args: [path.join(dir, "last.mjs")] } },
    });
    const run = await runCli(trustingConfig(["call", "last/work"]), { cwd: dir, env: cleanEnv() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("final answer");
  });
});

describe("a line a server was writing when mcpterm stopped it", () => {
  it("is not told as the server's stdout noise", async () => {
    const dir = await tempDir();
    await writeFile(
      path.join(dir, "slow.mjs"),
      raw2025ServerScript({
        tools: [{ name: "work", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }],
        call: `process.stdout.write('{"jsonrpc":"2.0","method":"notifications/message"');`,
      }),
    );
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: {
        slow: { command: process.execPath, args: [path.join(dir, "slow.mjs")], timeoutMs: 1000 },
      },
    });
    const run = await runCli(trustingConfig(["call", "slow/work"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/did not answer within 1000 ms/);
    expect(run.stderr).not.toMatch(/stdout/);
  });
});
