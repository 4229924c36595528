import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import type { CliIo } from "../../src/common/cli-io.js";
import { runCommand } from "../../src/run-command.js";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const servers: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

/** A terminal on stdin, as far as the command can tell, and captured output. */
function terminalIo(cwd: string): CliIo & { err: () => string } {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const stderr = new PassThrough();
  let err = "";
  stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  return {
    stdin,
    stdout: new PassThrough(),
    stderr,
    env: cleanEnv(),
    cwd,
    signal: new AbortController().signal,
    err: () => err,
  };
}

describe("one-shot flags without --prompt", () => {
  it("are a usage error at a terminal, naming each flag, instead of being dropped", async () => {
    const io = terminalIo(await tempDir());
    const code = await runCommand(["--yes", "--output", "json", "--approve", "dangerous"], io);
    expect(code).toBe(2);
    expect(io.err()).toMatch(/--output, --approve, --yes only apply to one-shot runs; add -p "<question>"/);
    expect(io.err().trim().split("\n")).toHaveLength(1);
  });

  it("carry into the one-shot run when the question is piped in", async () => {
    const model = await startScriptedModelServer([{ text: "piped answer" }]);
    servers.push(model);
    const run = await runCli(["--output", "json", "--model", "m", "--base-url", model.baseUrl], {
      cwd: await tempDir(),
      env: cleanEnv(),
      input: "what is it?\n",
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ answer: "piped answer", reason: "completed" });
    const body = model.requests[0]?.body as { messages: unknown[] } | undefined;
    expect(body?.messages.at(-1)).toMatchObject({ role: "user", content: "what is it?" });
  });

  it("reject an unknown tier through the parser, before anything starts", async () => {
    const io = terminalIo(await tempDir());
    expect(await runCommand(["--approve", "sometimes"], io)).toBe(2);
    expect(io.err()).toMatch(/--approve got unknown tier "sometimes"/);
  });
});
