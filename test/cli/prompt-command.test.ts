import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../support/scripted-model-server.js";
import { FETCH_SERVER, REPO_ROOT, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { waitForFileText } from "../support/poll.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";
import { loadConfig } from "../../src/core/config/index.js";
import { launchHash } from "../../src/core/config/config-trust.js";
import { UserSettings } from "../../src/core/config/user-settings.js";

let site: Server;
let siteUrl: string;
const modelServers: ScriptedModelServer[] = [];

beforeAll(async () => {
  site = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(
      "<html><head><title>Example</title></head><body><main><h1>Example Domain</h1><p>This domain is for use in examples.</p></main></body></html>",
    );
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
  await Promise.all(modelServers.map((server) => server.close()));
});

async function model(replies: ScriptedReply[]): Promise<ScriptedModelServer> {
  const server = await startScriptedModelServer(replies);
  modelServers.push(server);
  return server;
}

/** A project folder with a config like the shipped one: filesystem scoped to ./workspace, fetch, the fixture. */
async function project(marker: string): Promise<string> {
  const dir = await tempDir();
  await writeFile(path.join(dir, "keep.txt"), "");
  const workspace = path.join(dir, "workspace");
  await import("node:fs/promises").then((fs) => fs.mkdir(workspace));
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      filesystem: {
        command: process.execPath,
        args: [
          path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"),
          "./workspace",
          `--marker=${marker}`,
        ],
      },
      fetch: {
        command: process.execPath,
        args: [FETCH_SERVER, `--marker=${marker}`],
        env: { MCPTERM_FETCH_ALLOW_PRIVATE: "1" },
      },
      fixture: fixtureLaunch(marker),
    },
  });
  return dir;
}

function seedTask(): ScriptedReply[] {
  return [
    { toolCalls: [{ id: "f", name: "fetch__fetch", arguments: JSON.stringify({ url: siteUrl }) }] },
    {
      toolCalls: [
        {
          id: "w",
          name: "filesystem__write_file",
          arguments: JSON.stringify({ path: "workspace/new.md", text: "" }),
        },
      ],
    },
    { text: "Summary written to new.md." },
  ];
}

describe("mcpterm -p", () => {
  it("runs fetch -> summarize -> write end to end, --output json shows every step, and leaves no process behind", async () => {
    const marker = randomUUID();
    const dir = await project(marker);
    const replies = seedTask();
    // The write call carries the summary of what the fetch returned, as a real model would.
    const server = await startScriptedModelServer((request, index) => {
      if (index !== 1) return replies[index] ?? { text: "done" };
      const fetched =
        (request.body as { messages: Array<{ role: string; content: string }> }).messages.at(-1)?.content ??
        "";
      const summary = `# Summary\n\n${fetched.includes("Example Domain") ? "A page reserved for examples." : "nothing"}\n`;
      const target = path.join(dir, "workspace/new.md");
      return {
        toolCalls: [
          {
            id: "w",
            name: "filesystem__write_file",
            arguments: JSON.stringify({ path: target, content: summary }),
          },
        ],
      };
    });
    modelServers.push(server);

    const run = await runInProcess(
      [
        "-p",
        `fetch ${siteUrl}, summarize it and write the summary to new.md`,
        "--approve",
        "external,dangerous",
        "--trust-config",
        "--output",
        "json",
        "--model",
        "m",
        "--base-url",
        server.baseUrl,
      ],
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as {
      answer: string;
      steps: number;
      toolCalls: Array<{
        name: string;
        tier: string;
        approvedBy: string;
        ok: boolean;
        durationMs: number;
        result: string;
      }>;
      usage: { totalTokens: number };
      modelSteps: Array<{ step: number; finishReason: string; toolCalls: number; text: string }>;
    };
    expect(summary.answer).toBe("Summary written to new.md.");
    expect(summary.steps).toBe(3);
    expect(summary.toolCalls.map((call) => [call.name, call.tier, call.approvedBy, call.ok])).toEqual([
      ["fetch__fetch", "external", "flag", true],
      ["filesystem__write_file", "dangerous", "flag", true],
    ]);
    expect(summary.toolCalls[0]?.result).toContain("Example Domain");
    expect(summary.usage.totalTokens).toBeGreaterThan(0);
    expect(summary.modelSteps.map((step) => [step.step, step.finishReason, step.toolCalls])).toEqual([
      [1, "tool_calls", 1],
      [2, "tool_calls", 1],
      [3, "stop", 0],
    ]);
    expect(summary.modelSteps[2]?.text).toBe("Summary written to new.md.");
    expect(await readFile(path.join(dir, "workspace/new.md"), "utf8")).toContain(
      "A page reserved for examples.",
    );
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("denies risky calls without a flag: exit 3, the flag named on stderr, the model told, nothing written", async () => {
    const marker = randomUUID();
    const dir = await project(marker);
    const server = await model([
      {
        toolCalls: [
          {
            id: "w",
            name: "filesystem__write_file",
            arguments: JSON.stringify({ path: path.join(dir, "workspace/x.md"), content: "x" }),
          },
        ],
      },
      { text: "I was not allowed to write the file." },
    ]);
    const run = await runInProcess(
      ["-p", "write x.md", "--trust-config", "--model", "m", "--base-url", server.baseUrl],
      {
        cwd: dir,
        env: cleanEnv(),
      },
    );
    expect(run.code).toBe(3);
    expect(run.stdout).toBe("I was not allowed to write the file.\n");
    expect(run.stderr).toMatch(
      /filesystem\/write_file was not run: dangerous calls need approval; rerun with --approve dangerous/,
    );
    const toolMessage = (
      server.requests[1]?.body as { messages: Array<{ role: string; content: string }> }
    ).messages.at(-1);
    expect(toolMessage?.content).toMatch(/Not run: the call was denied/);
    expect(await readdir(path.join(dir, "workspace"))).toEqual([]);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("streams the answer to stdout and one progress line per tool call to stderr", async () => {
    const dir = await project(randomUUID());
    const server = await model([
      {
        toolCalls: [
          { name: "fixture__echo", arguments: '{"text":"hello"}' },
          { name: "fixture__sum", arguments: '{"a":1,"b":2}' },
        ],
      },
      { text: "hello, 3", chunkSize: 2 },
    ]);
    const run = await runCli(["-p", "-", "--trust-config", "--model", "m", "--base-url", server.baseUrl], {
      cwd: dir,
      env: cleanEnv(),
      input: "say hello\n",
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("hello, 3\n");
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^✓ fixture\/echo \{"text":"hello"\} \(\d+ ms\)$/);
    expect(
      (server.requests[0]?.body as { messages: Array<{ content: string }> }).messages.at(-1)?.content,
    ).toBe("say hello");
  });

  it("prints each step's words as a paragraph of their own, the calls' lines between them", async () => {
    const dir = await project(randomUUID());
    const server = await model([
      { text: "Let me check.", toolCalls: [{ name: "fixture__echo", arguments: '{"text":"a"}' }] },
      { text: "Done." },
    ]);
    const run = await runInProcess(
      ["-p", "x", "--trust-config", "--model", "m", "--base-url", server.baseUrl],
      {
        cwd: dir,
        env: cleanEnv(),
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Let me check.\n\nDone.\n");
    expect(run.stderr).toMatch(/^✓ fixture\/echo/m);
  });

  it("prints every event as a JSON line with --output stream-json", async () => {
    const dir = await project(randomUUID());
    const server = await model([
      { toolCalls: [{ name: "fixture__echo", arguments: '{"text":"a"}' }] },
      { text: "ok" },
    ]);
    const run = await runInProcess(
      ["-p", "x", "--trust-config", "--output", "stream-json", "--model", "m", "--base-url", server.baseUrl],
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string });
    expect(events[0]?.type).toBe("turn_start");
    expect(events.at(-1)?.type).toBe("turn_end");
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining([
        "model_request",
        "text_delta",
        "tool_call_proposed",
        "approval_decided",
        "tool_started",
        "tool_result",
        "model_step_end",
      ]),
    );
  });

  it("retries a 429 after its Retry-After and then answers", async () => {
    const dir = await tempDir();
    const server = await model([
      { status: 429, headers: { "retry-after": "1" }, body: { error: { message: "slow down" } } },
      { text: "fine" },
    ]);
    const run = await runInProcess(["-p", "x", "--model", "m", "--base-url", server.baseUrl], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("fine\n");
    expect(run.stderr).toMatch(/retrying in 1\.0 s \(attempt 1\)/);
    expect(server.requests).toHaveLength(2);
  });

  it("exits 1 with one sentence naming the key variable when the model answers 401, without retrying", async () => {
    const dir = await tempDir();
    const server = await model([{ status: 401, body: { error: { message: "invalid key" } } }]);
    const run = await runInProcess(["-p", "x", "--model", "m"], {
      cwd: dir,
      env: cleanEnv({ OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "sk-secret-value" }),
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/OPENAI_API_KEY/);
    expect(run.stderr).not.toMatch(/sk-secret-value|\n\s+at /);
    expect(server.requests).toHaveLength(1);
  });

  it("exits 1 when the step limit is reached", async () => {
    const dir = await project(randomUUID());
    const call: ScriptedReply = { toolCalls: [{ name: "fixture__echo", arguments: '{"text":"loop"}' }] };
    const server = await model([call, call]);
    const run = await runInProcess(
      ["-p", "x", "--trust-config", "--max-steps", "2", "--model", "m", "--base-url", server.baseUrl],
      {
        cwd: dir,
        env: cleanEnv(),
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Stopped after 2 model steps/);
  });

  it("answers text piped into plain mcpterm as a one-shot run, since stdin is not a terminal", async () => {
    const server = await model([{ text: "piped answer" }]);
    const run = await runCli(["--model", "m", "--base-url", server.baseUrl], {
      cwd: await tempDir(),
      env: cleanEnv(),
      input: "what is piped\n",
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("piped answer\n");
    expect(
      (server.requests[0]?.body as { messages: Array<{ content: string }> }).messages.at(-1)?.content,
    ).toBe("what is piped");
  });

  it("exits 2 with one sentence when no model is configured", async () => {
    const run = await runCli(["-p", "x"], { cwd: await tempDir(), env: cleanEnv() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^mcpterm: No model is set; .*MCPTERM_MODEL.*OPENAI_BASE_URL.*any OpenAI-compatible endpoint/,
    );
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("exits 2 naming file, key and expectation for a config with a wrong type, and starts no server", async () => {
    const marker = randomUUID();
    const dir = await tempDir();
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { good: fixtureLaunch(marker), bad: { command: "node", args: 5 } },
    });
    const run = await runInProcess(["-p", "x", "--model", "m", "--base-url", "http://127.0.0.1:9/v1"], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/mcp\.config\.json: mcpServers\.bad\.args must be an array of strings/);
    expect(await waitForNoProcesses(marker, 100)).toEqual([]);
  });

  it("exits 2 for invalid JSON in the config and for unknown flags", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "mcp.config.json"), '{\n  "mcpServers": {,\n}');
    const badJson = await runInProcess(["-p", "x", "--model", "m"], { cwd: dir, env: cleanEnv() });
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toMatch(/mcp\.config\.json is not valid JSON \(line 2, column \d+\)/);

    const badFlag = await runInProcess(["-p", "x", "--frobnicate"], { cwd: dir, env: cleanEnv() });
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toMatch(/Unknown argument: --frobnicate/);
  });

  it("stops every server it started when it is terminated mid-turn", async () => {
    const marker = randomUUID();
    const dir = await project(marker);
    const server = await model([
      { toolCalls: [{ name: "fixture__slow", arguments: '{"ms": 20000}' }] },
      { text: "never" },
    ]);
    const trace = path.join(dir, "trace.jsonl");
    const run = await runCli(
      ["-p", "x", "--trust-config", "--trace", trace, "--model", "m", "--base-url", server.baseUrl],
      {
        cwd: dir,
        env: cleanEnv(),
        // Once the trace shows the call running, the run is mid-turn and mid-call.
        onSpawn: (child) =>
          void waitForFileText(trace, '"tool_started"').then(
            () => child.kill("SIGTERM"),
            () => child.kill("SIGKILL"),
          ),
      },
    );
    expect(run.code).toBe(143);
    expect(run.stderr).toMatch(/interrupted/);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("stops its servers itself when aborted mid-call, with no exit hook to clean up after it", async () => {
    const marker = randomUUID();
    const dir = await project(marker);
    const server = await model([
      { toolCalls: [{ name: "fixture__slow", arguments: '{"ms": 20000}' }] },
      { text: "never" },
    ]);
    const trace = path.join(dir, "trace.jsonl");
    const stop = new AbortController();
    void waitForFileText(trace, '"tool_started"').then(
      () => stop.abort("SIGTERM"),
      () => stop.abort("SIGKILL"),
    );
    const run = await runInProcess(
      ["-p", "x", "--trust-config", "--trace", trace, "--model", "m", "--base-url", server.baseUrl],
      { cwd: dir, env: cleanEnv(), signal: stop.signal },
    );
    expect(run.code).toBe(143);
    expect(run.stderr).toMatch(/interrupted/);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it.each([
    ["SIGINT", 130],
    ["SIGHUP", 129],
  ] as const)(
    "exits %s's code %i while the answer streams, after stopping its servers",
    async (signal, code) => {
      const marker = randomUUID();
      const dir = await tempDir();
      await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { fixture: fixtureLaunch(marker) } });
      const server = await model([{ text: "a long answer\n".repeat(50), stallAfterChunks: 10 }]);
      const run = await runCli(["-p", "x", "--trust-config", "--model", "m", "--base-url", server.baseUrl], {
        cwd: dir,
        env: cleanEnv(),
        onSpawn: (child) => {
          child.stdout?.once("data", () => child.kill(signal));
        },
      });
      expect(run.code).toBe(code);
      expect(run.stdout).toMatch(/^a long answer/);
      expect(await waitForNoProcesses(marker)).toEqual([]);
    },
  );

  it("refuses to start a project's servers without --trust-config, naming each command line", async () => {
    const marker = randomUUID();
    const dir = await project(marker);
    const server = await model([{ text: "never asked" }]);
    const run = await runInProcess(["-p", "x", "--model", "m", "--base-url", server.baseUrl], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /mcp\.config\.json would start or connect to 3 servers \(filesystem: .*server-filesystem.*; fetch: .*; fixture: .*\); check them and rerun with --trust-config/,
    );
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
    expect(await waitForNoProcesses(marker, 200)).toEqual([]);
  });

  it("starts them without the flag once the person trusted this exact config, and asks again when it changes", async () => {
    const settingsDir = await tempDir();
    const dir = await project(randomUUID());
    const configPath = path.join(dir, "mcp.config.json");
    const config = await loadConfig({ explicit: true, path: configPath, cwd: dir, env: cleanEnv() });
    new UserSettings(settingsDir, {}).trustConfig(configPath, launchHash(config));

    const server = await model([{ text: "trusted" }, { text: "again" }]);
    const env = cleanEnv({ MCPTERM_SETTINGS_DIR: settingsDir });
    const run = await runInProcess(["-p", "x", "--model", "m", "--base-url", server.baseUrl], {
      cwd: dir,
      env,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("trusted\n");

    const changed = JSON.parse(await readFile(configPath, "utf8")) as {
      mcpServers: Record<string, { args: string[] }>;
    };
    changed.mcpServers.fixture?.args.push("--extra");
    await writeJson(configPath, changed);
    const after = await runInProcess(["-p", "x", "--model", "m", "--base-url", server.baseUrl], {
      cwd: dir,
      env,
    });
    expect(after.code).toBe(2);
    expect(after.stderr).toMatch(/--trust-config/);
  });

  it("lets risky tiers run without asking only when the user's own settings say so, never the project file", async () => {
    const settingsDir = await tempDir();
    const marker = randomUUID();
    const dir = await project(marker);
    const configPath = path.join(dir, "mcp.config.json");
    const config = JSON.parse(await readFile(configPath, "utf8")) as Record<string, unknown>;
    await writeJson(configPath, { ...config, approval: { auto: ["read_only", "dangerous"] } });
    const notes = path.join(dir, "workspace", "n.md");
    const write: ScriptedReply = {
      toolCalls: [
        { name: "filesystem__write_file", arguments: JSON.stringify({ path: notes, content: "n" }) },
      ],
    };
    const projectOnly = await model([write, { text: "denied" }]);
    const env = cleanEnv({ MCPTERM_SETTINGS_DIR: settingsDir });
    const denied = await runInProcess(
      ["-p", "x", "--trust-config", "--model", "m", "--base-url", projectOnly.baseUrl],
      { cwd: dir, env },
    );
    expect(denied.code).toBe(3);
    expect(denied.stderr).toMatch(
      /approval\.auto in .*mcp\.config\.json lists dangerous; risky tiers only run unasked when you allow them/,
    );

    await writeJson(path.join(settingsDir, "settings.json"), {
      approval: { auto: ["dangerous"] },
      trustedConfigs: {},
    });
    const userAllowed = await model([write, { text: "written" }]);
    const allowed = await runInProcess(
      ["-p", "x", "--trust-config", "--model", "m", "--base-url", userAllowed.baseUrl],
      { cwd: dir, env },
    );
    expect(allowed.code).toBe(0);
    expect(await readFile(notes, "utf8")).toBe("n");
  });

  it("redacts a secret in a tool result and strips its escape sequences everywhere: model, screen, JSON, trace", async () => {
    const dir = await project(randomUUID());
    const reply = (): ScriptedReply[] => [
      { toolCalls: [{ name: "fixture__leak", arguments: "{}" }] },
      { text: "done" },
    ];
    const traceFile = path.join(dir, "trace.jsonl");
    const textServer = await model(reply());
    const text = await runInProcess(
      ["-p", "x", "--trust-config", "--trace", traceFile, "--model", "m", "--base-url", textServer.baseUrl],
      {
        cwd: dir,
        env: cleanEnv(),
      },
    );
    const jsonServer = await model(reply());
    const json = await runInProcess(
      ["-p", "x", "--trust-config", "--output", "json", "--model", "m", "--base-url", jsonServer.baseUrl],
      {
        cwd: dir,
        env: cleanEnv(),
      },
    );
    expect(text.code).toBe(0);
    expect(json.code).toBe(0);
    const sentToModel = JSON.stringify(textServer.requests[1]?.body);
    const trace = await readFile(traceFile, "utf8");
    for (const output of [text.stdout, text.stderr, json.stdout, sentToModel, trace]) {
      expect(output).not.toContain(FAKE_OPENAI_KEY);
    }
    expect(sentToModel).toContain("[REDACTED]");
    const summary = JSON.parse(json.stdout) as { toolCalls: Array<{ result: string }> };
    expect(summary.toolCalls[0]?.result).toContain("[REDACTED]");
    for (const output of [text.stdout, text.stderr]) {
      expect(output.includes("\u001b") || output.includes("\u0007")).toBe(false);
    }
  });

  it("never contacts a project's remote server, with secrets in its headers, without trust", async () => {
    const seen: string[] = [];
    const listener = createServer((request, response) => {
      seen.push(request.headers.authorization ?? "");
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    try {
      const dir = await tempDir();
      const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`;
      await writeJson(path.join(dir, "mcp.config.json"), {
        mcpServers: { remote: { url, headers: { Authorization: "Bearer ${SECRET_TOKEN}" } } },
      });
      const server = await model([{ text: "never" }]);
      const run = await runInProcess(["-p", "hi", "--model", "m", "--base-url", server.baseUrl], {
        cwd: dir,
        env: cleanEnv({ SECRET_TOKEN: "supersecretvalue123" }),
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/remote: http:\/\/127\.0\.0\.1:\d+\/mcp \(sends headers Authorization\)/);
      expect(run.stderr).not.toContain("supersecretvalue123");
      expect(seen).toEqual([]);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it("asks again when a trusted config starts lowering a tool's tier", async () => {
    const dir = await project(randomUUID());
    const configPath = path.join(dir, "mcp.config.json");
    const load = () => loadConfig({ explicit: true, path: configPath, cwd: dir, env: cleanEnv() });
    const before = launchHash(await load());
    const changed = JSON.parse(await readFile(configPath, "utf8")) as {
      mcpServers: Record<string, Record<string, unknown>>;
    };
    if (changed.mcpServers.filesystem) changed.mcpServers.filesystem.tiers = { write_file: "read_only" };
    await writeJson(configPath, changed);
    expect(launchHash(await load())).not.toBe(before);
  });
});
