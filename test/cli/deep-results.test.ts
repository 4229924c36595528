import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOO_DEEP_TO_READ } from "../../src/core/policy/nesting-limit.js";
import { deepLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, trustingConfig } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/**
 * A server's result nested 100,000 levels deep (test/fixtures/deep-server.ts): every walk after
 * the parse used to run out of stack, so `mcpterm call` died with an internal error and a
 * session's call failed as "Maximum call stack size exceeded". It is now read to MAX_NESTING.
 */
let dir: string;
const models: ScriptedModelServer[] = [];

beforeAll(async () => {
  dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { deep: deepLaunch(randomUUID()) } });
});
afterAll(() => Promise.all(models.map((model) => model.close())));

/** A model that calls the deep tool with `args`, then answers "Read it." */
async function modelCalling(args: string): Promise<ScriptedModelServer> {
  const model = await startScriptedModelServer([
    { toolCalls: [{ id: "c1", name: "deep__deep", arguments: args }] },
    { text: "Read it." },
  ]);
  models.push(model);
  return model;
}

function oneShot(model: ScriptedModelServer): ReturnType<typeof runInProcess> {
  return runInProcess(
    ["-p", "call the deep tool", "--trust-config", "--no-kb", "--model", "m", "--base-url", model.baseUrl],
    { cwd: dir, env: cleanEnv() },
  );
}

/** How many objects deep `value` goes before it meets something else. */
function levels(value: unknown): number {
  let count = 0;
  for (let at = value; typeof at === "object" && at !== null; at = (at as { level?: unknown }).level)
    count += 1;
  return count;
}

describe("a result nested deeper than anything after the parse can follow", () => {
  it("mcpterm call --json prints it to MAX_NESTING, says where it stopped, and exits 0", async () => {
    const run = await runInProcess(trustingConfig(["call", "deep/deep", "--json"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const printed = (JSON.parse(run.stdout) as { result: { content: unknown; structuredContent: unknown } })
      .result;
    expect(printed.content).toEqual([{ type: "text", text: "the deep answer" }]);
    expect(run.stdout).toContain(TOO_DEEP_TO_READ);
    // The result sits three levels into the message ({result: {structuredContent: …}}).
    expect(levels(printed.structuredContent)).toBeGreaterThan(200);
    expect(levels(printed.structuredContent)).toBeLessThan(256);
  });

  it("a one-shot session's call succeeds, the model gets the answer, the trace keeps the call", async () => {
    const model = await modelCalling("{}");
    const run = await oneShot(model);
    expect(run.stderr).not.toMatch(/stack|failed/i);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Read it.");
    const toolMessage = JSON.stringify((model.requests[1]?.body as { messages: unknown[] }).messages.at(-1));
    expect(toolMessage).toContain("the deep answer");
    const traces = path.join(dir, ".mcpterm", "traces");
    const [file] = await readdir(traces);
    const records = (await readFile(path.join(traces, file ?? ""), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; ok?: boolean });
    expect(records.find((record) => record.type === "tool_result")?.ok).toBe(true);
    expect(records.some((record) => record.type === "raw_result")).toBe(true);
  });
});

describe("a model's tool-call arguments nested 100,000 levels deep", () => {
  it("fail that call as invalid arguments the model reads; the run goes on and ends 0", async () => {
    const deep = `${'{"level":'.repeat(100_000)}0${"}".repeat(100_000)}`;
    const model = await modelCalling(`{"text":${deep}}`);
    const run = await oneShot(model);
    expect(run.stderr).not.toMatch(/stack size|internal error/i);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Read it.");
    expect(run.stderr).toContain("invalid_args");
    const toolMessage = JSON.stringify((model.requests[1]?.body as { messages: unknown[] }).messages.at(-1));
    expect(toolMessage).toContain("nest deeper than 256 levels");
  });
});
