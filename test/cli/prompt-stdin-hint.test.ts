import { PassThrough, Readable, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIo } from "../../src/common/cli-io.js";
import { runCommand } from "../../src/run-command.js";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/** `-p -` at a terminal waits for what is typed: it says so, and how to end it, instead of looking hung. */
let model: ScriptedModelServer;
beforeAll(async () => {
  model = await startScriptedModelServer(() => ({ text: "answered" }));
});
afterAll(() => model.close());

function sink(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/** `mcpterm -p -` in process, reading `stdin`, stopped by `signal`. */
async function started(
  stdin: CliIo["stdin"],
  signal: AbortSignal = new AbortController().signal,
): Promise<{ running: Promise<number>; stdout: () => string; stderr: () => string }> {
  const stdout = sink();
  const stderr = sink();
  const io: CliIo = {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin,
    env: cleanEnv(),
    cwd: await tempDir(),
    signal,
  };
  const running = runCommand(["-p", "-", "--model", "m", "--base-url", model.baseUrl, "--no-kb"], io);
  return { running, stdout: stdout.text, stderr: stderr.text };
}

async function run(stdinIsTerminal: boolean): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdin = Object.assign(Readable.from(["the question typed\n"]), { isTTY: stdinIsTerminal });
  const { running, stdout, stderr } = await started(stdin);
  const code = await running;
  return { code, stdout: stdout(), stderr: stderr() };
}

describe("-p - reading the prompt", () => {
  it("at a terminal, says it is reading and how to end, then answers what was typed", async () => {
    const { code, stdout, stderr } = await run(true);
    expect(code).toBe(0);
    expect(stderr).toContain(
      "Reading the prompt from the terminal; end it with Ctrl+D on a line of its own.\n",
    );
    expect(stdout).toBe("answered\n");
    const body = model.requests.at(-1)?.body as { messages: Array<{ role: string; content: string }> };
    expect(body.messages.at(-1)?.content).toContain("the question typed");
  });

  it("from a pipe, says nothing of the kind", async () => {
    const { stderr } = await run(false);
    expect(stderr).not.toContain("Reading the prompt");
  });

  it("stops at Ctrl+C or a signal while the prompt is still coming (a pipe that never ends)", async () => {
    const stdin = new PassThrough();
    const stop = new AbortController();
    const asked = model.requests.length;
    const { running, stdout, stderr } = await started(stdin, stop.signal);
    // Some of it has come, and been read; the rest never does.
    stdin.write("the start of a long log\n");
    while (stdin.readableLength > 0) await new Promise((resolve) => setImmediate(resolve));
    stop.abort("SIGINT");
    expect(await running).toBe(130);
    expect(stderr()).toBe("mcpterm: interrupted.\n");
    expect(stdout()).toBe("");
    expect(model.requests.length).toBe(asked);
  });
});
