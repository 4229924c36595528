import { execFile, spawn, type ChildProcess } from "node:child_process";
import { open, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { CLI, tempDir } from "../support/fixtures.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { waitFor } from "../support/poll.js";
import { cleanEnv, type CliRun } from "../support/run-cli.js";

const servers: ScriptedModelServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

/** A model that answers "ok" to each run, and what each run asked. */
async function model(): Promise<ScriptedModelServer> {
  const server = await startScriptedModelServer(Array.from({ length: 4 }, () => ({ text: "ok" })));
  servers.push(server);
  return server;
}

/** What the model got as the user's message of its last request. */
function userMessage(server: ScriptedModelServer): string {
  const messages = (server.requests.at(-1)?.body as { messages: Array<{ role: string; content: string }> })
    .messages;
  return messages.filter((message) => message.role === "user").at(-1)?.content ?? "";
}

function promptArgs(server: ScriptedModelServer, ...more: string[]): string[] {
  return [CLI, "-p", "why did the build fail", "--model", "m", "--base-url", server.baseUrl, ...more];
}

/** Runs `sh -c script` (mcpterm is "$@", after the script's own words) to its end. */
function shell(script: string, args: string[], cwd: string): Promise<CliRun> {
  return finished(spawn("sh", ["-c", script, "sh", process.execPath, ...args], { cwd, env: cleanEnv() }));
}

function finished(child: ChildProcess, seen: { stderr: string } = { stderr: "" }): Promise<CliRun> {
  let stdout = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (seen.stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr: seen.stderr }));
  });
}

describe("text piped into mcpterm -p <text>", () => {
  it("goes to the model after the prompt, fenced as untrusted and redacted, and is listed as attached", async () => {
    const server = await model();
    const dir = await tempDir();
    const log = `compiling\nusing ${FAKE_OPENAI_KEY}\nerror: disk full\n`;
    await writeFile(path.join(dir, "build.log"), log);
    const run = await shell('cat build.log | "$@"', [...promptArgs(server, "--output", "json")], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(userMessage(server)).toBe(
      'why did the build fail\n\n<stdin trust="untrusted">\ncompiling\nusing [REDACTED]\nerror: disk full\n</stdin>',
    );
    expect((JSON.parse(run.stdout) as { attached: unknown }).attached).toEqual([
      {
        kind: "stdin",
        server: "",
        name: "stdin",
        detail: `${Buffer.byteLength(log)} B, 3 lines, 1 secret redacted`,
      },
    ]);
  });

  it("keeps the start and the end of a log of megabytes, within one tool result's size", async () => {
    const server = await model();
    const run = await shell('seq 1 400000 | "$@"', promptArgs(server), await tempDir());
    expect(run.code).toBe(0);
    const sent = userMessage(server);
    expect(sent.length).toBeLessThan(41_000);
    expect(sent).toMatch(/^why did the build fail\n\n<stdin trust="untrusted">\n1\n2\n3\n/);
    expect(sent).toMatch(
      /\n\[… 2\.6 MB were piped in: the middle is left out, the start and the end are here …\]\n/,
    );
    expect(sent).toMatch(/\n399999\n400000\n<\/stdin>$/);
    // Cut at lines: each kept line is whole.
    const [start = "", end = ""] = sent.split(/\n\[….*…\]\n/);
    expect(start.split("\n").at(-1)).toBe(String(start.split("\n").length - 3));
    expect(Number(end.split("\n")[0]) + end.split("\n").length - 2).toBe(400000);
  });

  it("reads a file given as stdin, and no text when stdin is /dev/null", async () => {
    const server = await model();
    const dir = await tempDir();
    await writeFile(path.join(dir, "diff.txt"), "+ added line\n");
    const fromFile = await shell('"$@" < diff.txt', promptArgs(server), dir);
    expect(fromFile.code).toBe(0);
    expect(userMessage(server)).toBe(
      'why did the build fail\n\n<stdin trust="untrusted">\n+ added line\n</stdin>',
    );
    const fromNull = await shell('"$@" < /dev/null', promptArgs(server), dir);
    expect(fromNull.code).toBe(0);
    expect(userMessage(server)).toBe("why did the build fail");
  });

  it("stops a run whose stdin is binary with exit 2 and one sentence, sending nothing", async () => {
    const server = await model();
    const run = await shell("printf 'PNG\\000\\001\\002' | \"$@\"", promptArgs(server), await tempDir());
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "mcpterm: What was piped into stdin is not text (it holds NUL bytes); pipe text into mcpterm, or run again with < /dev/null to go without it.\n",
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe("a pipe that has not ended when the prompt is ready", () => {
  /** mcpterm reading a named pipe the test writes, as a shell's pipe it is; its pid is the shell's (exec). */
  async function fromFifo(server: ScriptedModelServer) {
    const dir = await tempDir();
    const fifo = path.join(dir, "in.fifo");
    await promisify(execFile)("mkfifo", [fifo]);
    const child = spawn("sh", ["-c", 'exec "$@" < in.fifo', "sh", process.execPath, ...promptArgs(server)], {
      cwd: dir,
      env: cleanEnv(),
    });
    const seen = { stderr: "" };
    const done = finished(child, seen);
    const writer = await open(fifo, "w");
    return { child, seen, done, writer };
  }

  it("is waited for to its end, saying so, and all of it is sent", async () => {
    const server = await model();
    const { seen, done, writer } = await fromFifo(server);
    await writer.write("first line\n");
    await waitFor(() => seen.stderr.includes("waiting for what is piped"), "the waiting notice");
    expect(seen.stderr).toBe(
      "mcpterm: waiting for what is piped into stdin to end (11 B so far), to send it with the prompt; end it (Ctrl+D at a terminal), stop with Ctrl+C, or run again with < /dev/null to go without it.\n",
    );
    expect(server.requests).toHaveLength(0);
    await writer.write("last line\n");
    await writer.close();
    const run = await done;
    expect(run.code).toBe(0);
    expect(userMessage(server)).toBe(
      'why did the build fail\n\n<stdin trust="untrusted">\nfirst line\nlast line\n</stdin>',
    );
  });

  it("is stopped by Ctrl+C: exit 130, nothing sent", async () => {
    const server = await model();
    const { child, seen, done, writer } = await fromFifo(server);
    await writer.write("a line and no end\n");
    await waitFor(() => seen.stderr.includes("waiting for what is piped"), "the waiting notice");
    child.kill("SIGINT");
    const run = await done;
    await writer.close();
    expect(run.code).toBe(130);
    expect(run.stderr).toMatch(/\nmcpterm: interrupted\.\n$/);
    expect(server.requests).toHaveLength(0);
  });
});

describe("stdin a program left open (a socket, as spawn makes it)", () => {
  function spawned(server: ScriptedModelServer, dir: string): ChildProcess {
    return spawn(process.execPath, promptArgs(server, "--output", "json"), { cwd: dir, env: cleanEnv() });
  }

  it("is not waited for when nothing was written to it", async () => {
    const server = await model();
    const child = spawned(server, await tempDir());
    const run = await finished(child);
    child.stdin?.destroy();
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(userMessage(server)).toBe("why did the build fail");
  });

  it("is sent when it was written and ended before the prompt was ready", async () => {
    const server = await model();
    const child = spawned(server, await tempDir());
    child.stdin?.end("written by a program\n");
    const run = await finished(child);
    expect(run.code).toBe(0);
    expect(userMessage(server)).toBe(
      'why did the build fail\n\n<stdin trust="untrusted">\nwritten by a program\n</stdin>',
    );
  });

  it("is said to have gone unsent when written and left open", async () => {
    const server = await model();
    const child = spawned(server, await tempDir());
    child.stdin?.write("y\n");
    const run = await finished(child);
    child.stdin?.destroy();
    expect(run.code).toBe(0);
    const warning =
      "stdin was still open when the prompt was ready, so the 2 B written to it went unsent; close it once written to send it with the prompt, or pass the whole prompt with -p -.";
    expect(run.stderr).toBe(`warning: ${warning}\n`);
    expect((JSON.parse(run.stdout) as { warnings: unknown }).warnings).toEqual([warning]);
    expect(userMessage(server)).toBe("why did the build fail");
  });

  it("says text written after the prompt was ready went unsent", async () => {
    let release: () => void = () => undefined;
    const until = new Promise<void>((resolve) => (release = resolve));
    const server = await startScriptedModelServer([{ until, text: "ok" }]);
    servers.push(server);
    const child = spawned(server, await tempDir());
    const seen = { stderr: "" };
    const done = finished(child, seen);
    // The prompt went out with nothing from stdin; the program writes only now.
    await waitFor(() => server.requests.length === 1, "the model request");
    child.stdin?.end("too late\n");
    await waitFor(() => seen.stderr.includes("went unsent"), "the warning");
    release();
    const run = await done;
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      "warning: text written to stdin after the prompt was ready went unsent (a program's stdin is not waited for); write and close it before mcpterm starts, or pass the whole prompt with -p -.\n",
    );
    expect(userMessage(server)).toBe("why did the build fail");
  });
});
