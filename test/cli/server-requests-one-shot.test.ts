import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EVERYTHING_SERVER, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const servers: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

/** A project with server-everything, and a model that calls `tool` once and then sums up. */
async function project(tool: string, args: object): Promise<{ dir: string; model: ScriptedModelServer }> {
  const dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] } },
  });
  const model = await startScriptedModelServer((request) => {
    const body = request.body as { tools?: unknown[]; messages: Array<{ role: string }> };
    if (!body.tools) return { text: "the sampled text" };
    if (body.messages.some((message) => message.role === "tool")) return { text: "done" };
    return { toolCalls: [{ id: "c1", name: `everything__${tool}`, arguments: JSON.stringify(args) }] };
  });
  servers.push(model);
  return { dir, model };
}

function flags(model: ScriptedModelServer, trace: string): string[] {
  return [
    "--trust-config",
    "--yes",
    "--model",
    "m",
    "--base-url",
    model.baseUrl,
    "--trace",
    trace,
    "--output",
    "json",
  ];
}

interface JsonRun {
  toolCalls: Array<{ result?: string; display?: string; forModel?: string }>;
}

describe("server requests in one-shot mode", () => {
  it("declines an elicitation (nobody can answer it) and says so on stderr", async () => {
    const { dir, model } = await project("trigger-elicitation-request", {});
    const trace = path.join(dir, "t.jsonl");
    const run = await runCli(["-p", "ask me", ...flags(model, trace)], { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'Declined a request for input from server "everything": nobody is there to answer it',
    );
    const toolMessage = (
      model.requests[1]?.body as { messages: Array<{ role: string; content: string }> }
    ).messages.find((message) => message.role === "tool");
    expect(toolMessage?.content).toMatch(/decline/i);
    const records = (await readFile(trace, "utf8"))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string });
    expect(records).toContainEqual(
      expect.objectContaining({ type: "elicitation", action: "decline", by: "default" }),
    );
  });

  it("declines sampling without --allow-sampling, and answers it with the model with the flag", async () => {
    const declined = await project("trigger-sampling-request", { prompt: "hi" });
    const refused = await runCli(
      ["-p", "sample", ...flags(declined.model, path.join(declined.dir, "t.jsonl"))],
      {
        cwd: declined.dir,
        env: cleanEnv(),
      },
    );
    expect(refused.stderr).toContain("pass --allow-sampling");
    // The model was asked for the turn only (twice), never for the server's sampling request.
    expect(declined.model.requests.every((request) => (request.body as { tools?: unknown }).tools)).toBe(
      true,
    );

    const allowed = await project("trigger-sampling-request", { prompt: "hi", maxTokens: 20 });
    const answered = await runCli(
      ["-p", "sample", "--allow-sampling", ...flags(allowed.model, path.join(allowed.dir, "t.jsonl"))],
      { cwd: allowed.dir, env: cleanEnv() },
    );
    expect(answered.code).toBe(0);
    const sampling = allowed.model.requests.find((request) => !(request.body as { tools?: unknown }).tools);
    expect((sampling?.body as { max_tokens: number }).max_tokens).toBe(20);
    const output = JSON.parse(answered.stdout) as JsonRun;
    expect(JSON.stringify(output)).toContain("the sampled text");
  });

  it("refuses a --root that is not a folder, in one sentence, before anything starts", async () => {
    const { dir, model } = await project("get-roots-list", {});
    const run = await runCli(
      ["-p", "roots", "--root", "no-such-folder", ...flags(model, path.join(dir, "t.jsonl"))],
      {
        cwd: dir,
        env: cleanEnv(),
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `mcpterm: --root no-such-folder: ${path.join(dir, "no-such-folder")} does not exist; give an existing folder.\n`,
    );
    expect(model.requests).toHaveLength(0);
  });

  it("offers the working folder and every --root as roots", async () => {
    const { dir, model } = await project("get-roots-list", {});
    const extra = await tempDir("mcpterm-root-");
    const run = await runCli(["-p", "roots", "--root", extra, ...flags(model, path.join(dir, "t.jsonl"))], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.code).toBe(0);
    const toolMessage = (
      model.requests[1]?.body as { messages: Array<{ role: string; content: string }> }
    ).messages.find((message) => message.role === "tool");
    expect(toolMessage?.content).toContain(new URL(`file://${dir}`).href);
    expect(toolMessage?.content).toContain(new URL(`file://${extra}`).href);
  });
});
