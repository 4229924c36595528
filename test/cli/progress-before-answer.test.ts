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
