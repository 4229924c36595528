import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/**
 * Long-running tools through the real binary: `mcpterm call` and a one-shot turn wait for the
 * task the server makes of the call (2026 tasks extension and 2025-11-25 tasks), show its status
 * on stderr only, cancel it at the call's hard limit, and record it in the trace.
 */
let dir: string;
const models: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

beforeAll(async () => {
  dir = await tempDir();
  const modern = { command: process.execPath, args: [compiledFixture("modern-server")] };
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      modern: { ...modern, tiers: { long_job: "read_only" } },
      legacy: { command: process.execPath, args: [compiledFixture("legacy-server")] },
      hurried: { ...modern, timeoutMs: 500, maxCallMs: 500 },
    },
  });
});

const cli = (args: string[]) => runCli(trustingConfig(args), { cwd: dir, env: cleanEnv() });

describe("mcpterm call of a tool the server runs as a task", () => {
  it.each(["modern", "legacy"])("%s: waits for the result; each status goes to stderr", async (server) => {
    const run = await cli(["call", "--yes", `${server}/long_job`, '{"steps": 3, "stepMs": 60}']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("job done after 3 steps\n");
    expect(run.stderr).toMatch(/^task \S+: working/m);
    expect(run.stderr).toMatch(/^task \S+: completed/m);
  });

  it("--json: stdout is the one documented object, the statuses stay on stderr", async () => {
    const run = await cli(["call", "--yes", "--json", "modern/long_job", '{"steps": 2, "stepMs": 60}']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(report).sort()).toEqual(["durationMs", "isError", "result", "server", "tool"]);
    expect(report.result).toMatchObject({ content: [{ type: "text", text: "job done after 2 steps" }] });
    expect(run.stderr).toMatch(/^task job-\d+: completed: step 2 of 2$/m);
  });

  it("past maxCallMs the task is cancelled and the call fails with why (exit 1)", async () => {
    const run = await cli(["call", "--yes", "hurried/long_job", '{"steps": 500, "stepMs": 50}']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      /^mcpterm: stopped after 500 ms, the most one call to server "hurried" may take \(maxCallMs in its config\), though it kept reporting progress; its task job-\d+ was cancelled$/m,
    );
  });
});

describe("a one-shot turn whose tool runs as a task", () => {
  const oneShot = async (args: object, trace: string, server = "modern") => {
    const model = await startScriptedModelServer((request) => {
      const body = request.body as { messages: Array<{ role: string }> };
      if (body.messages.some((message) => message.role === "tool")) return { text: "done" };
      return { toolCalls: [{ id: "c1", name: `${server}__long_job`, arguments: JSON.stringify(args) }] };
    });
    models.push(model);
    const run = await cli([
      "-p",
      "run the job",
      "--trust-config",
      "--model",
      "m",
      "--base-url",
      model.baseUrl,
      "--trace",
      trace,
      "--approve",
      "dangerous",
    ]);
    const toolMessage = (
      model.requests[1]?.body as { messages: Array<{ role: string; content: string }> } | undefined
    )?.messages.find((message) => message.role === "tool");
    return { run, toolMessage: toolMessage?.content ?? "" };
  };

  it("waits for the task; the trace records it created, each status, and done", async () => {
    const trace = path.join(dir, "task.jsonl");
    const { run, toolMessage } = await oneShot({ steps: 3, stepMs: 60 }, trace);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("done\n");
    expect(toolMessage).toContain("job done after 3 steps");
    expect(run.stderr).toMatch(/· modern\/long_job task job-\d+: working/);
    const records = (await readFile(trace, "utf8"))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; status?: string; statusMessage?: string });
    const statuses = records.filter((record) => record.type === "tool_task");
    expect(statuses[0]).toMatchObject({ callId: "c1", status: "working", statusMessage: "step 0 of 3" });
    expect(statuses.at(-1)).toMatchObject({ status: "completed", statusMessage: "step 3 of 3" });
    const tree = await cli(["trace", trace]);
    expect(tree.stdout).toMatch(/ran as task job-\d+/);
    expect(tree.stdout).toContain("completed: step 3 of 3");
  });

  it("2026: the task's question is declined, as one-shot mode declines every question, and the task goes on", async () => {
    const trace = path.join(dir, "asking.jsonl");
    const { run, toolMessage } = await oneShot({ steps: 2, stepMs: 60, question: "Carry on?" }, trace);
    expect(run.code).toBe(0);
    expect(toolMessage).toContain("job done after 2 steps (answer: decline)");
    expect(run.stderr).toContain('Declined a request for input from server "modern"');
    expect(run.stderr).toMatch(/task job-\d+: input_required: waiting for an answer: Carry on\?/);
  });

  it("past maxCallMs the task is cancelled; the model and stderr are told why, and the turn goes on", async () => {
    const trace = path.join(dir, "hurried.jsonl");
    const { run, toolMessage } = await oneShot({ steps: 500, stepMs: 50 }, trace, "hurried");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("done\n");
    const why =
      /stopped after 500 ms, the most one call to server "hurried" may take \(maxCallMs in its config\), though it kept reporting progress; its task job-\d+ was cancelled/;
    expect(toolMessage).toMatch(why);
    expect(run.stderr).toMatch(
      /✗ hurried\/long_job .* failed \(transient\): The call failed: stopped after 500 ms/,
    );
    // The task's end is told before the call's.
    expect(run.stderr).toMatch(/task job-\d+: cancelled: tasks\/cancel sent\n✗ hurried\/long_job/);
    const records = (await readFile(trace, "utf8")).split("\n").filter(Boolean);
    expect(
      records.some((line) => line.includes('"type":"tool_task"') && line.includes('"status":"cancelled"')),
    ).toBe(true);
  });
});
