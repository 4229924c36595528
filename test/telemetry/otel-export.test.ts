import { randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../support/otlp-receiver.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli, type CliRun } from "../support/run-cli.js";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../support/scripted-model-server.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
afterAll(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function receiver(options: { hang?: boolean } = {}): Promise<OtlpReceiver> {
  const started = await startOtlpReceiver(options);
  closers.push(() => started.close());
  return started;
}

async function model(replies: ScriptedReply[]): Promise<ScriptedModelServer> {
  const server = await startScriptedModelServer(replies);
  closers.push(() => server.close());
  return server;
}

/** A project with the fixture server, which logs each request's `_meta` to meta.jsonl. */
async function project(marker: string): Promise<{ dir: string; metaLog: string }> {
  const dir = await tempDir();
  const metaLog = path.join(dir, "meta.jsonl");
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { fixture: { ...fixtureLaunch(marker), env: { FIXTURE_META_LOG: metaLog } } },
  });
  return { dir, metaLog };
}

/** What the fixture server received: each request's method and `_meta`. */
async function receivedMeta(
  file: string,
): Promise<Array<{ method: string; _meta?: Record<string, unknown> }>> {
  const text = await readFile(file, "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { method: string; _meta?: Record<string, unknown> });
}

function oneShot(
  dir: string,
  server: ScriptedModelServer,
  prompt: string,
  env: Record<string, string>,
): Promise<CliRun> {
  return runCli(
    ["--no-kb", "--trust-config", "--model", "scripted", "--base-url", server.baseUrl, "-p", prompt],
    {
      cwd: dir,
      env: cleanEnv({ OPENAI_API_KEY: "sk-test", ...env }),
    },
  );
}

function only(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((span) => span.name === name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0] as ReceivedSpan;
}

/** A TCP port nothing listens on: taken, then given back. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const ECHO_THEN_ANSWER: ScriptedReply[] = [
  { toolCalls: [{ id: "call-echo", name: "fixture__echo", arguments: '{"text":"hello"}' }] },
  { text: "it said hello", usage: { prompt_tokens: 40, completion_tokens: 5 } },
];

describe("live OpenTelemetry export", () => {
  it("sends a one-shot turn as GenAI spans over OTLP/protobuf, and each request carries its span's trace context", async () => {
    const marker = randomUUID();
    const { dir, metaLog } = await project(marker);
    const collector = await receiver();
    const server = await model(ECHO_THEN_ANSWER);
    const run = await oneShot(dir, server, "say hello", {
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_HEADERS: "x-collector-team=alpha,authorization=Bearer%20collector-token-123456",
      OTEL_SERVICE_NAME: "mcpterm-under-test",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=test",
    });
    expect(run.stderr).not.toMatch(/traces could not be sent/);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("it said hello\n");

    // Protobuf to /v1/traces, with the configured headers and resource.
    expect(collector.exports.length).toBeGreaterThan(0);
    for (const batch of collector.exports) {
      expect(batch.path).toBe("/v1/traces");
      expect(batch.contentType).toBe("application/x-protobuf");
      expect(batch.headers["x-collector-team"]).toBe("alpha");
      expect(batch.headers.authorization).toBe("Bearer collector-token-123456");
    }
    const spans = collector.spans();
    const turn = only(spans, "invoke_agent mcpterm");
    expect(turn.resource["service.name"]).toBe("mcpterm-under-test");
    expect(turn.resource["deployment.environment"]).toBe("test");
    expect(turn.parentSpanId).toBeUndefined();
    expect(turn.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "mcpterm",
      "gen_ai.request.model": "scripted",
      "mcpterm.turn.end_reason": "completed",
    });
    expect(typeof turn.attributes["gen_ai.usage.input_tokens"]).toBe("number");
    expect(turn.status.code).toBe(1);

    // Two model steps, children of the turn, with usage and finish reasons.
    const chats = spans.filter((span) => span.name === "chat scripted");
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.traceId).toBe(turn.traceId);
      expect(chat.parentSpanId).toBe(turn.spanId);
      expect(chat.kind).toBe(3);
      expect(chat.attributes["gen_ai.operation.name"]).toBe("chat");
      expect(chat.attributes["server.address"]).toBe("127.0.0.1");
    }
    expect(chats.map((chat) => chat.attributes["gen_ai.response.finish_reasons"])).toEqual([
      ["tool_calls"],
      ["stop"],
    ]);
    expect(chats[1]?.attributes["gen_ai.usage.input_tokens"]).toBe(40);
    expect(chats[1]?.attributes["gen_ai.usage.output_tokens"]).toBe(5);

    // The tool call: execute_tool under the turn, with who approved it; tools/call under that.
    const execute = only(spans, "execute_tool echo");
    expect(execute.parentSpanId).toBe(turn.spanId);
    expect(execute.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "echo",
      "gen_ai.tool.call.id": "call-echo",
      "mcpterm.tool.server": "fixture",
      "mcpterm.tool.tier": "read_only",
      "mcpterm.approval.approved": true,
      "mcpterm.approval.by": "default",
    });
    expect(typeof execute.attributes["mcpterm.tool.duration_ms"]).toBe("number");
    expect(execute.status.code).toBe(1);
    const call = only(spans, "tools/call echo");
    expect(call.traceId).toBe(turn.traceId);
    expect(call.parentSpanId).toBe(execute.spanId);
    expect(call.kind).toBe(3);
    expect(call.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "echo",
      "network.transport": "pipe",
    });
    expect(call.attributes["mcp.protocol.version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(call.attributes["jsonrpc.request.id"]).toMatch(/^\d+$/);

    // The server got that span's trace context in the request's _meta.
    const received = await receivedMeta(metaLog);
    const toolCall = received.find((entry) => entry.method === "tools/call");
    expect(toolCall?._meta?.traceparent).toBe(`00-${call.traceId}-${call.spanId}-01`);
    // Added beside what the SDK put there, not instead of it.
    expect(toolCall?._meta?.progressToken).toBeDefined();
    // Every request carried one, each naming a span that was exported.
    // The fixture speaks both revisions: mcpterm asks with server/discover and speaks 2026-07-28.
    expect(received.map((entry) => entry.method)).toEqual(
      expect.arrayContaining(["server/discover", "tools/list"]),
    );
    const spanIds = new Set(spans.map((span) => `${span.traceId}-${span.spanId}`));
    for (const entry of received) {
      const parent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(entry._meta?.traceparent));
      expect(parent, `${entry.method} carried a traceparent`).not.toBeNull();
      expect(spanIds.has(`${parent?.[1]}-${parent?.[2]}`), `${entry.method}'s span was exported`).toBe(true);
    }

    // Start-up is a trace of its own: the discovery and the listings under start_servers.
    const startup = only(spans, "start_servers mcpterm");
    const discover = only(spans, "server/discover");
    expect(discover.parentSpanId).toBe(startup.spanId);
    expect(discover.attributes["mcp.protocol.version"]).toBe("2026-07-28");
    expect(call.attributes["mcp.protocol.version"]).toBe("2026-07-28");
    expect(only(spans, "tools/list").parentSpanId).toBe(startup.spanId);

    // Contents were not asked for: no prompt, answer, arguments or results in any span.
    const everything = JSON.stringify(spans);
    expect(everything).not.toContain("say hello");
    expect(everything).not.toContain("it said hello");
    expect(everything).not.toContain("gen_ai.tool.call.arguments");
    expect(everything).not.toContain("gen_ai.input.messages");
    // The collector's token is a secret: in no span and not in the recorded trace.
    expect(everything).not.toContain("collector-token-123456");
    expect(run.stderr).not.toContain("collector-token-123456");
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("sends OTLP/JSON as the settings block says, with contents when asked, redacted", async () => {
    const { dir } = await project(randomUUID());
    const collector = await receiver();
    const server = await model(ECHO_THEN_ANSWER);
    const settingsDir = await tempDir();
    await writeJson(path.join(settingsDir, "settings.json"), {
      telemetry: {
        enabled: true,
        endpoint: collector.endpoint,
        protocol: "http/json",
        captureContent: true,
        serviceName: "from-settings",
        headers: { "x-api-key": "settings-header-secret-987654" },
      },
    });
    const run = await oneShot(dir, server, `say hello; my key is ${FAKE_OPENAI_KEY}`, {
      MCPTERM_SETTINGS_DIR: settingsDir,
    });
    expect(run.code).toBe(0);
    expect(collector.exports.length).toBeGreaterThan(0);
    expect(collector.exports.every((batch) => batch.contentType === "application/json")).toBe(true);
    expect(collector.exports[0]?.headers["x-api-key"]).toBe("settings-header-secret-987654");
    const spans = collector.spans();
    const turn = only(spans, "invoke_agent mcpterm");
    expect(turn.resource["service.name"]).toBe("from-settings");
    const input = String(turn.attributes["gen_ai.input.messages"]);
    const messages = JSON.parse(input) as Array<{
      role: string;
      parts: Array<{ type: string; content: string }>;
    }>;
    expect(messages).toHaveLength(1);
    expect(messages[0]?.role).toBe("user");
    expect(messages[0]?.parts[0]?.content).toMatch(/^say hello; my key is \S/);
    expect(String(turn.attributes["gen_ai.output.messages"])).toContain("it said hello");
    const execute = only(spans, "execute_tool echo");
    expect(execute.attributes["gen_ai.tool.call.arguments"]).toBe('{"text":"hello"}');
    expect(String(execute.attributes["gen_ai.tool.call.result"])).toContain("hello");
    // Redacted as the trace file is: the key in the prompt never leaves.
    expect(JSON.stringify(spans)).not.toContain(FAKE_OPENAI_KEY);
    expect(JSON.stringify(spans)).not.toContain("settings-header-secret-987654");
  });

  it("without content capture, arguments that are not JSON leave no trace of themselves in a span", async () => {
    const { dir } = await project(randomUUID());
    const collector = await receiver();
    // A parser's error quotes what it could not read: here the arguments are a password.
    const server = await model([
      { toolCalls: [{ id: "call-bad", name: "fixture__echo", arguments: "Hunter2Pass!xyz" }] },
      { text: "could not log in" },
    ]);
    const run = await oneShot(dir, server, "log in", {
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    });
    expect(run.code).toBe(0);
    const spans = collector.spans();
    const execute = only(spans, "execute_tool echo");
    expect(execute.attributes["error.type"]).toBe("invalid_args");
    expect(execute.attributes["mcpterm.tool.problem"]).toBeUndefined();
    expect(JSON.stringify(spans)).not.toContain("Hunter2");
  });

  it("an unreachable collector costs the run nothing: the answer, exit 0, one warning", async () => {
    const { dir } = await project(randomUUID());
    const server = await model(ECHO_THEN_ANSWER);
    const run = await oneShot(dir, server, "say hello", {
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await deadPort()}`,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("it said hello\n");
    const warnings = run.stderr.split("\n").filter((line) => line.includes("traces could not be sent"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^warning: traces could not be sent to http:\/\/127\.0\.0\.1:\d+\/v1\/traces \(/,
    );
  });

  it("a collector that never answers: the exit waits only its bounded flush, with one warning", async () => {
    const { dir } = await project(randomUUID());
    const collector = await receiver({ hang: true });
    const server = await model(ECHO_THEN_ANSWER);
    const settingsDir = await tempDir();
    await writeFile(
      path.join(settingsDir, "settings.json"),
      JSON.stringify({ telemetry: { exitFlushMs: 300 } }),
    );
    const run = await oneShot(dir, server, "say hello", {
      MCPTERM_SETTINGS_DIR: settingsDir,
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("it said hello\n");
    const warnings = run.stderr.split("\n").filter((line) => line.includes("traces could not be sent"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/did not take the last spans within 300 ms/);
  });

  it("puts mcpterm's spans under TRACEPARENT from the environment (a CI job's trace)", async () => {
    const { dir } = await project(randomUUID());
    const collector = await receiver();
    const server = await model([{ text: "ok" }]);
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const run = await oneShot(dir, server, "hi", {
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.endpoint}/v1/traces`,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
      TRACEPARENT: `00-${traceId}-00f067aa0ba902b7-01`,
    });
    expect(run.code).toBe(0);
    const turn = only(collector.spans(), "invoke_agent mcpterm");
    expect(turn.traceId).toBe(traceId);
    expect(turn.parentSpanId).toBe("00f067aa0ba902b7");
  });

  it("a project's config cannot turn export on: a cloned repository does not get your traces", async () => {
    const { dir } = await project(randomUUID());
    const collector = await receiver();
    const config = path.join(dir, "mcp.config.json");
    const written = JSON.parse(await readFile(config, "utf8")) as Record<string, unknown>;
    await writeJson(config, {
      ...written,
      telemetry: { enabled: true, endpoint: collector.endpoint, captureContent: true },
    });
    const server = await model(ECHO_THEN_ANSWER);
    const run = await oneShot(dir, server, "say hello", {});
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("it said hello\n");
    // The process has exited: nothing more can arrive.
    expect(collector.exports).toEqual([]);
  });

  it("--otlp-endpoint that is not a URL is a usage error", async () => {
    const { dir } = await project(randomUUID());
    const server = await model([{ text: "ok" }]);
    const run = await runCli(
      [
        "--no-kb",
        "--otlp-endpoint",
        "localhost:4318",
        "--base-url",
        server.baseUrl,
        "--model",
        "m",
        "-p",
        "hi",
      ],
      { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: "sk-test" }) },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--otlp-endpoint localhost:4318 is not an http:\/\/ or https:\/\/ URL/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
