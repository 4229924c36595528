import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTrace } from "../../src/core/trace/trace-reader.js";
import { tempDir, writeJson } from "../support/fixtures.js";
import { hostileLaunch } from "../support/hostile.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const models: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

describe("a tool that reports progress forever", () => {
  it("is stopped at its server's maxCallMs, not retried, and the server is told to cancel", async () => {
    const marker = randomUUID();
    const dir = await tempDir();
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { hostile: { ...hostileLaunch(marker), timeoutMs: 400, maxCallMs: 1500 } },
    });
    const model = await startScriptedModelServer([
      { toolCalls: [{ id: "f1", name: "hostile__progress_flood", arguments: "{}" }] },
      { text: "It never finished." },
    ]);
    models.push(model);
    const trace = path.join(dir, "t.jsonl");
    const run = await runCli(
      ["-p", "work", "--trust-config", "--model", "m", "--base-url", model.baseUrl, "--trace", trace],
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /✗ hostile\/progress_flood \{\} failed \(transient\): The call failed: stopped after 1500 ms, the most one call to server "hostile" may take \(maxCallMs in its config\), though it kept reporting progress/,
    );
    const recorded = await readTrace(trace);
    const call = recorded.turns[0]?.steps[0]?.toolCalls[0];
    expect(call?.progressUpdates).toBeGreaterThan(3);
    const sent = recorded.wire.filter((frame) => frame.server === "hostile" && frame.direction === "send");
    // One request, never repeated, and a cancellation for it (not another request's, such as
    // the listen stream's, which a loaded machine may see cancelled first).
    const calls = sent.filter((frame) => JSON.stringify(frame.message).includes('"tools/call"'));
    expect(calls).toHaveLength(1);
    const callId = (calls[0]?.message as { id?: unknown } | undefined)?.id;
    const cancel = sent.find(
      (frame) =>
        JSON.stringify(frame.message).includes("notifications/cancelled") &&
        (frame.message as { params?: { requestId?: unknown } }).params?.requestId === callId,
    );
    // Its reason is a sentence for the server's author, not a name of mcpterm's own.
    expect((cancel?.message as { params?: { reason?: unknown } } | undefined)?.params?.reason).toBe(
      "still running after 1500 ms, the most one call may take (the client's maxCallMs for this server)",
    );
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });
});
