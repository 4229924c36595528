import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { copyFile, mkdir, readFile, stat, symlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../../src/core/errors.js";
import { readTrace } from "../../src/core/trace/trace-reader.js";
import type { OtlpExport } from "../../src/core/trace/trace-otlp.js";
import { startOtlpReceiver } from "../support/otlp-receiver.js";
import type { TraceCommandArgs } from "../../src/args/index.js";
import { runTraceCommand } from "../../src/headless/trace-command.js";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { DURATION } from "../support/patterns.js";
import { waitForFileText } from "../support/poll.js";
import { processesMatching } from "../support/process-table.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { brokenLaunch, FAKE_SECRET } from "../trace/support.js";

const marker = randomUUID();
let dir: string;
let model: ScriptedModelServer;
let traceFile: string;
let run: { code: number; stderr: string };

/** The turn: a read-only call and a denied dangerous one, then a call whose result leaks a key, then the answer. */
const replies = [
  {
    toolCalls: [
      { id: "echo-1", name: "fixture__echo", arguments: '{"text":"hi"}' },
      { id: "write-1", name: "fixture__write_note", arguments: '{"name":"a.md","text":"x"}' },
    ],
  },
  { toolCalls: [{ id: "status-1", name: "broken__get_status", arguments: "{}" }] },
  { text: "Checked: all fine." },
];

beforeAll(async () => {
  dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { fixture: fixtureLaunch(marker), broken: brokenLaunch(marker) },
  });
  model = await startScriptedModelServer(replies);
  traceFile = path.join(dir, "t.jsonl");
  run = await runInProcess(
    [
      "-p",
      "check the status",
      "--trust-config",
      "--model",
      "m",
      "--base-url",
      model.baseUrl,
      "--trace",
      traceFile,
    ],
    { cwd: dir, env: cleanEnv() },
  );
});

afterAll(async () => {
  await model.close();
  for (const pid of processesMatching(marker)) process.kill(pid, "SIGKILL");
});

async function trace(
  args: Partial<TraceCommandArgs>,
  cwd = dir,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string }> {
  const stdout = new PassThrough();
  let text = "";
  stdout.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  const code = await runTraceCommand(
    {
      file: undefined,
      turn: undefined,
      json: false,
      otlp: undefined,
      wire: false,
      server: undefined,
      full: false,
      calls: false,
      ...args,
    },
    {
      stdout,
      stderr: new PassThrough(),
      stdin: new PassThrough(),
      // The person's own settings are read for --otlp: a fresh folder, never the developer's.
      env: { MCPTERM_SETTINGS_DIR: path.join(cwd, "no-settings"), ...env },
      cwd,
      signal: new AbortController().signal,
    },
  );
  return { code, stdout: text };
}

describe("the trace of mcpterm -p", () => {
  it("never holds the secret a tool returned", async () => {
    expect(run.code).toBe(3);
    const text = await readFile(traceFile, "utf8");
    expect(text).toContain("[REDACTED]");
    expect(text).not.toContain(FAKE_SECRET);
  });

  it("renders as a tree: steps, calls with tier, approval, guardrails and durations, then the answer", async () => {
    const { code, stdout } = await trace({ file: "t.jsonl" });
    expect(code).toBe(0);
    expect(stdout).toMatch(
      new RegExp(String.raw`^turn 1: "check the status" \(${DURATION}, completed\)$`, "m"),
    );
    expect(stdout).toMatch(
      new RegExp(
        String.raw`├─ model step 1 \(${DURATION}, first token ${DURATION}, finish tool_calls, \d+ in / \d+ out tokens, 2 messages, \d+ tools offered\)`,
      ),
    );
    expect(stdout).toMatch(
      new RegExp(
        String.raw`tool fixture/echo \(${DURATION}, ok\)\n.*tier read_only: readOnlyHint\n.*arguments \{"text":"hi"\}\n.*approved by default`,
      ),
    );
    expect(stdout).toMatch(/tool fixture\/write_note \(0 ms, failed: permission\)/);
    // Nobody was asked, so the trace says the policy decided, not that a question waited.
    expect(stdout).toMatch(/denied by policy: mcpterm is running non-interactively/);
    expect(stdout).not.toMatch(/denied by policy after/);
    expect(stdout).toMatch(/guardrail: denied by policy: /);
    expect(stdout).toMatch(new RegExp(String.raw`tool broken/get_status \(${DURATION}, ok\)`));
    // The key is the value of the server's own env entry BROKEN_SECRET, so it is known by value.
    expect(stdout).toMatch(/guardrail: redacted 1 secret\(s\) from the result \(known-secret\)/);
    expect(stdout).toMatch(
      new RegExp(
        String.raw`└─ answer \(3 step\(s\), ${DURATION}, \d+ in / \d+ out tokens, 1 denied\)\n {3}└─ Checked: all fine\.\n`,
      ),
    );
    // The broken server's stdout noise, at start and during its call, recorded as it came; the
    // fixture (2026) listened for list changes from its start to the end of the run. The two
    // servers start side by side, so their records interleave in either order.
    const besides = stdout.split("\nwhat servers did besides answering\n")[1] ?? "";
    expect(besides.endsWith("\n")).toBe(true);
    expect(
      besides
        .trimEnd()
        .split("\n")
        .map((line) => line.replace(/^[├└]─ /, ""))
        .sort(),
    ).toEqual([
      'broken wrote to stdout, which is for JSON-RPC only: "Broken server v0.0.1 starting..."',
      'broken wrote to stdout, which is for JSON-RPC only: "calling a tool now"',
      'fixture: subscribed to list changes (modern, honoured {"toolsListChanged":true})',
      "fixture: subscription to list changes closed (stopped)",
    ]);
    expect(besides.trimEnd().split("\n").at(-1)).toMatch(/^└─ /);
  });

  it("prints the grouped structure with --json and one turn with --turn", async () => {
    const { stdout } = await trace({ file: traceFile, json: true, turn: 1 });
    const turn = JSON.parse(stdout) as { input: string; steps: Array<{ toolCalls: Array<{ id: string }> }> };
    expect(turn.input).toBe("check the status");
    expect(turn.steps.map((step) => step.toolCalls.map((call) => call.id))).toEqual([
      ["echo-1", "write-1"],
      ["status-1"],
      [],
    ]);
    const whole = JSON.parse((await trace({ file: traceFile, json: true })).stdout) as { wireFrames: number };
    expect(whole.wireFrames).toBeGreaterThan(4);
  });

  it("lists one server's JSON-RPC frames with --wire --server", async () => {
    const { stdout } = await trace({ file: traceFile, wire: true, server: "broken" });
    // The fixture speaks 2026-07-28: mcpterm's first frame asks it with server/discover.
    expect(stdout).toMatch(/^\+ +\d+ ms {2}broken → server\/discover #server-discover-probe-1 /m);
    expect(stdout).toMatch(/^\+ +\d+ ms {2}broken → tools\/call #\d+ .*"name":"get_status"/m);
    expect(stdout).toMatch(/^\+ +\d+ ms {2}broken ← result #\d+ .*\[REDACTED\]/m);
    expect(stdout).not.toMatch(/ fixture [→←] /);
  });

  it("sends the same export to a collector URL, with OTEL_EXPORTER_OTLP_HEADERS", async () => {
    const collector = await startOtlpReceiver();
    try {
      const { code, stdout } = await trace({ file: traceFile, otlp: collector.endpoint }, dir, {
        OTEL_EXPORTER_OTLP_HEADERS: "x-team=alpha",
      });
      expect(code).toBe(0);
      expect(stdout).toBe(
        `Sent 7 span(s) from 1 turn(s) of ${traceFile} to ${collector.endpoint}/v1/traces.\n`,
      );
      expect(collector.exports).toHaveLength(1);
      expect(collector.exports[0]?.contentType).toBe("application/json");
      expect(collector.exports[0]?.headers["x-team"]).toBe("alpha");
      const names = collector.spans().map((span) => span.name);
      expect(names.filter((name) => name.startsWith("execute_tool"))).toHaveLength(3);
      // What was said and returned stays home unless content capture is on, as in live export.
      const keys = collector.spans().flatMap((span) => Object.keys(span.attributes));
      for (const key of ["mcpterm.turn.input", "mcpterm.turn.answer", "gen_ai.tool.call.arguments"])
        expect(keys).not.toContain(key);
    } finally {
      await collector.close();
    }
  });

  it("sends the contents too when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is on", async () => {
    const collector = await startOtlpReceiver();
    try {
      const { code } = await trace({ file: traceFile, otlp: collector.endpoint }, dir, {
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
      });
      expect(code).toBe(0);
      const keys = collector.spans().flatMap((span) => Object.keys(span.attributes));
      expect(keys).toContain("mcpterm.turn.input");
      expect(keys).toContain("gen_ai.tool.call.arguments");
    } finally {
      await collector.close();
    }
  });

  it("reads content capture and headers from the person's own telemetry settings too", async () => {
    const collector = await startOtlpReceiver();
    const settingsDir = await tempDir();
    await writeJson(path.join(settingsDir, "settings.json"), {
      telemetry: { captureContent: true, headers: { "x-team": "beta" } },
    });
    try {
      const { code } = await trace({ file: traceFile, otlp: collector.endpoint }, dir, {
        MCPTERM_SETTINGS_DIR: settingsDir,
      });
      expect(code).toBe(0);
      expect(collector.exports[0]?.headers["x-team"]).toBe("beta");
      const keys = collector.spans().flatMap((span) => Object.keys(span.attributes));
      expect(keys).toContain("mcpterm.turn.input");
    } finally {
      await collector.close();
    }
  });

  it("says when a collector's redirect names no address", async () => {
    const { createServer } = await import("node:http");
    const redirecting = createServer((_req, res) => res.writeHead(302).end());
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    const { port } = redirecting.address() as AddressInfo;
    try {
      await expect(trace({ file: traceFile, otlp: `http://127.0.0.1:${port}` })).rejects.toThrow(
        `The collector at http://127.0.0.1:${port}/v1/traces answered with a redirect (HTTP 302) naming no address; the spans were not sent on — check the endpoint.`,
      );
    } finally {
      await new Promise((resolve) => redirecting.close(resolve));
    }
  });

  it("does not follow a collector's redirect to another address", async () => {
    const { createServer } = await import("node:http");
    const collector = await startOtlpReceiver();
    // The address it names carries a token in its user and query: neither is said.
    const moved = collector.endpoint.replace("http://", "http://user:s3cr3t-pass@");
    const redirecting = createServer((_req, res) =>
      res.writeHead(307, { location: `${moved}/v1/traces?token=s3cr3t-token` }).end(),
    );
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    const { port } = redirecting.address() as AddressInfo;
    try {
      await expect(trace({ file: traceFile, otlp: `http://127.0.0.1:${port}` })).rejects.toThrow(
        `The collector at http://127.0.0.1:${port}/v1/traces answered with a redirect (HTTP 307) to ${collector.endpoint}/v1/traces; the spans were not sent on — give that address if you trust it.`,
      );
      expect(collector.exports).toHaveLength(0);
    } finally {
      await new Promise((resolve) => redirecting.close(resolve));
      await collector.close();
    }
  });

  it("a collector that is not there is one clear sentence, not a stack", async () => {
    await expect(trace({ file: traceFile, otlp: "http://127.0.0.1:9" })).rejects.toThrow(
      /^Could not send the spans to http:\/\/127\.0\.0\.1:9\/v1\/traces: fetch failed \(bad port\); check that the collector listens there/,
    );
  });

  it("sends a URL's user and password as Basic authorization, as live export does", async () => {
    const collector = await startOtlpReceiver();
    try {
      const address = collector.endpoint.replace("http://", "http://otlp%20user:pa%3Ass@");
      const { code } = await trace({ file: traceFile, otlp: address }, dir);
      expect(code).toBe(0);
      expect(collector.exports[0]?.headers.authorization).toBe(
        `Basic ${Buffer.from("otlp user:pa:ss").toString("base64")}`,
      );
      // With an Authorization header too, which one is meant is not guessed.
      await expect(
        trace({ file: traceFile, otlp: address }, dir, {
          OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Bearer%20t",
        }),
      ).rejects.toThrow(
        /holds a user name and password, and the collector's headers have an Authorization header too/,
      );
      expect(collector.exports).toHaveLength(1);
    } finally {
      await collector.close();
    }
  });

  it("writes an OTLP/JSON export to a new file its owner alone reads, never over a file or through a link", async () => {
    const out = path.join(dir, `otlp-${randomUUID()}.json`);
    await trace({ file: traceFile, otlp: out });
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    // A second export to the same name, a link to a person's file, a folder, a folder that is not there.
    await expect(trace({ file: traceFile, otlp: out })).rejects.toThrow(
      new UsageError(`${out} already exists; --otlp does not replace a file, so give a new name.`),
    );
    const notes = path.join(dir, `notes-${randomUUID()}.txt`);
    await writeFile(notes, "precious\n");
    const link = path.join(dir, `link-${randomUUID()}.json`);
    await symlink(notes, link);
    await expect(trace({ file: traceFile, otlp: link })).rejects.toThrow(UsageError);
    expect(await readFile(notes, "utf8")).toBe("precious\n");
    await expect(trace({ file: traceFile, otlp: dir })).rejects.toThrow(
      new UsageError(`Cannot write ${dir}: it is a folder; give --otlp a file name.`),
    );
    const nowhere = path.join(dir, "no-such-folder", "x.json");
    await expect(trace({ file: traceFile, otlp: nowhere })).rejects.toThrow(
      new UsageError(`Cannot write ${nowhere}: its folder does not exist.`),
    );
  });

  it("writes an OTLP/JSON export with a span per turn, model step and tool call", async () => {
    const { stdout } = await trace({ file: traceFile, otlp: "out.json" });
    const out = path.join(dir, "out.json");
    expect(stdout).toBe(`Wrote 7 span(s) from 1 turn(s) of ${traceFile} to ${out} (OTLP/JSON).\n`);
    const exported = JSON.parse(await readFile(out, "utf8")) as OtlpExport;
    const spans = exported.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    const operation = (name: string) =>
      spans.filter((span) =>
        span.attributes.some(
          (a) =>
            a.key === "gen_ai.operation.name" && "stringValue" in a.value && a.value.stringValue === name,
        ),
      );
    expect(operation("invoke_agent")).toHaveLength(1);
    expect(operation("chat")).toHaveLength(3);
    expect(operation("execute_tool")).toHaveLength(3);
    for (const span of spans) {
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(span.startTimeUnixNano).toMatch(/^\d{19}$/);
    }
    expect(new Set(spans.map((span) => span.spanId)).size).toBe(spans.length);
    const ids = new Set(spans.map((span) => span.spanId));
    for (const span of spans.slice(1)) expect(ids.has(span.parentSpanId ?? "")).toBe(true);
  });
});

describe("mcpterm trace without a file", () => {
  it("reads the newest trace in .mcpterm/traces", async () => {
    const project = await tempDir();
    const traces = path.join(project, ".mcpterm", "traces");
    await mkdir(traces, { recursive: true });
    await writeJson(path.join(traces, "20240101-000000-000-aaaaaa.jsonl"), {});
    await utimes(
      path.join(traces, "20240101-000000-000-aaaaaa.jsonl"),
      new Date(2024, 0, 1),
      new Date(2024, 0, 1),
    );
    await copyFile(traceFile, path.join(traces, "20250101-000000-000-bbbbbb.jsonl"));
    const { stdout } = await trace({}, project);
    expect(stdout).toContain('turn 1: "check the status"');
  });

  it("says there are no traces, or no such file, or no such turn, as usage errors", async () => {
    const empty = await tempDir();
    await expect(trace({}, empty)).rejects.toThrow(
      new UsageError(
        `There are no traces in ${path.join(empty, ".mcpterm", "traces")}; run a session first or name a trace file.`,
      ),
    );
    await expect(trace({ file: "nope.jsonl" })).rejects.toThrow(
      `There is no trace file at ${path.join(dir, "nope.jsonl")}.`,
    );
    await expect(trace({ file: traceFile, turn: 4 })).rejects.toThrow(
      "There is no turn 4 in this trace (turns are 1 to 1).",
    );
    await expect(trace({ file: traceFile, server: "broken" })).rejects.toThrow(
      "--server only applies to --wire and --calls.",
    );
    await expect(trace({ file: traceFile, full: true })).rejects.toThrow("--full only applies to --wire.");
  });
});

describe("a killed mcpterm -p", () => {
  it("leaves a trace that still reads, with the turn and its running call marked unfinished", async () => {
    const slowModel = await startScriptedModelServer([
      { toolCalls: [{ id: "slow-1", name: "fixture__slow", arguments: '{"ms":20000}' }] },
    ]);
    const killed = path.join(dir, "killed.jsonl");
    try {
      const result = await runCli(
        ["-p", "wait", "--trust-config", "--model", "m", "--base-url", slowModel.baseUrl, "--trace", killed],
        {
          cwd: dir,
          env: cleanEnv(),
          // Kill once the trace shows the call running: the process dies mid-turn, mid-call.
          onSpawn: (child) =>
            void waitForFileText(killed, '"tool_started"').then(
              () => child.kill("SIGKILL"),
              () => child.kill("SIGTERM"),
            ),
        },
      );
      expect(result.signal).toBe("SIGKILL");
    } finally {
      await slowModel.close();
    }
    const read = await readTrace(killed);
    const call = read.turns[0]?.steps[0]?.toolCalls[0];
    expect(call).toMatchObject({ id: "slow-1", tool: "slow", approval: { approved: true } });
    expect(call?.startedAt).toBeGreaterThan(0);
    expect(read.turns[0]?.end).toBeUndefined();
    const { stdout } = await trace({ file: killed });
    expect(stdout).toMatch(
      new RegExp(String.raw`turn 1: "wait" \(${DURATION}, did not finish \(the process stopped mid-turn\)\)`),
    );
    expect(stdout).toMatch(/tool fixture\/slow \(\?, …\)/);
    expect(stdout).toContain("guardrail: no result recorded (the turn stopped while this call was pending)");
  });
});

describe("a trace file written by something else", () => {
  it("is read whole when a record nests 100,000 levels deep or a turn's end lacks its usage", async () => {
    const file = path.join(dir, `foreign-${randomUUID()}.jsonl`);
    const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    const records = [
      '{"type":"session_start","sessionId":"s","version":"0.1.0","model":"m","servers":[],"cwd":"/tmp","ts":1}',
      '{"type":"turn_start","turn":1,"input":"hi","ts":2}',
      `{"type":"tool_call_proposed","call":{"id":"c1","step":1,"modelName":"x__y","server":"x","tool":"y","arguments":${deep},"rawArguments":"{}","toolNotes":[]},"ts":3}`,
      '{"type":"model_step_end","step":1,"latencyMs":5,"finishReason":"stop","usage":5,"ts":4}',
      '{"type":"turn_end","reason":"completed","answer":"done","steps":1,"deniedCalls":0,"ts":5}',
    ];
    await writeFile(file, `${records.join("\n")}\n`);
    for (const args of [
      ["trace", file],
      ["trace", file, "--calls"],
    ]) {
      const shown = await runInProcess(args, { cwd: dir, env: cleanEnv() });
      expect(shown.stderr, args.join(" ")).not.toMatch(/internal error|stack size|TypeError/);
      expect(shown.code, args.join(" ")).toBe(0);
    }
    const tree = await runInProcess(["trace", file], { cwd: dir, env: cleanEnv() });
    expect(tree.stdout).toMatch(/answer \(1 step\(s\), \S+ ms\)/);
    expect(tree.stdout).not.toContain("undefined");
  });

  it("leaves out records without what their type holds, says which, and shows the rest", async () => {
    const file = path.join(dir, `foreign-${randomUUID()}.jsonl`);
    const records = [
      '{"type":"session_start","sessionId":"s","version":"0.0.1","model":"m","servers":["x"],"cwd":"/tmp","ts":1}',
      '{"type":"servers","servers":[{"name":"x","status":"connected","tools":"many"},{"name":"y","status":"failed","tools":0}],"ts":2}',
      '{"type":"turn_start","turn":1,"input":"hi","ts":3}',
      '{"type":"model_request","step":1,"messageCount":2,"ts":4}',
      '{"type":"tool_call_proposed","call":{"id":"c1","step":1,"modelName":"x__y","server":"x","tool":"y","arguments":{},"rawArguments":"{}"},"ts":5}',
      '{"type":"approval_decided","callId":"c1","approved":true,"by":"user","reason":42,"ts":6}',
      '{"type":"tool_result","callId":"c1","ok":true,"display":"ok","durationMs":"3 ms","ts":7}',
      '{"type":"wire","server":"x","direction":"send","at":8,"ts":8}',
      '{"type":"turn_end","reason":"completed","answer":"done","steps":1,"ts":9}',
    ];
    await writeFile(file, `${records.join("\n")}\n`);
    for (const args of [
      ["trace", file],
      ["trace", file, "--json"],
      ["trace", file, "--wire"],
      ["trace", file, "--otlp", path.join(dir, `otlp-${randomUUID()}.json`)],
    ]) {
      const shown = await runInProcess(args, { cwd: dir, env: cleanEnv() });
      expect(shown.stderr, args.join(" ")).toBe("");
      expect(shown.code, args.join(" ")).toBe(0);
      expect(shown.stdout, args.join(" ")).not.toMatch(/\bundefined\b|\bNaN\b/);
    }
    const tree = await runInProcess(["trace", file], { cwd: dir, env: cleanEnv() });
    expect(tree.stdout).toContain('! line 4 (model_request) was left out: its field "tools" is missing\n');
    expect(tree.stdout).toContain(
      '! line 6 (approval_decided) was left out: its field "reason" is not a string\n',
    );
    expect(tree.stdout).toContain("server y: failed");
    expect(tree.stdout).not.toContain("server x:");
    expect(tree.stdout).toMatch(/tool x\/y \(\?, ok\)/);
    const wire = await runInProcess(["trace", file, "--wire"], { cwd: dir, env: cleanEnv() });
    expect(wire.stdout).toMatch(/ x → \? {2}\(no message recorded\)\n/);
  });

  it("a calls file nested past 256 levels is refused (exit 2), not replayed cut", async () => {
    const file = path.join(dir, `calls-${randomUUID()}.jsonl`);
    const deep = `${'{"a":'.repeat(300)}1${"}".repeat(300)}`;
    await writeFile(
      file,
      `{"kind":"tool","server":"fixture","tool":"echo","arguments":${deep},"tier":"read_only","durationMs":1,"result":{"content":[]}}\n`,
    );
    const run = await runInProcess(["replay", file], { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^mcpterm: Line 1 of \S+ nests deeper than 256 levels of objects and arrays; flatten it\.\n$/,
    );
  });
});
