import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpToolHost } from "../../src/core/agent/mcp-tool-host.js";
import type { AgentTool, ToolOutcome } from "../../src/core/agent/tool-host.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { EVERYTHING_SERVER, resultsLaunch, serverConfig } from "../support/fixtures.js";

/**
 * What a call's outcome carries of a result, through the real client against the results fixture
 * and the published server-everything: structured content, the outputSchema check, and media.
 */
let manager: McpManager;
let host: McpToolHost;

beforeAll(async () => {
  manager = new McpManager(
    [
      serverConfig("results", resultsLaunch(randomUUID())),
      serverConfig("everything", { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] }),
    ],
    { parentEnv: process.env },
  );
  await manager.start();
  host = new McpToolHost(manager, { redactor: new SecretRedactor(), resultCharLimit: 2_000 });
});
afterAll(() => manager.close());

function tool(server: string, name: string): AgentTool {
  const found = host.list().find((candidate) => candidate.server === server && candidate.name === name);
  if (!found)
    throw new Error(
      `${server} has no tool ${name}; it lists ${host
        .list()
        .map((t) => t.name)
        .join(", ")}`,
    );
  return found;
}

function call(server: string, name: string, args: Record<string, unknown> = {}): Promise<ToolOutcome> {
  return host.call(tool(server, name), args, {
    callId: randomUUID(),
    signal: new AbortController().signal,
    onProgress: () => undefined,
  });
}

describe("structured content and the outputSchema", () => {
  it("keeps server-everything's structured weather apart from its text, and finds nothing wrong with it", async () => {
    const outcome = await call("everything", "get-structured-content", { location: "Chicago" });
    expect(outcome).toMatchObject({ ok: true, failure: undefined });
    expect(outcome.outputSchemaProblem).toBeUndefined();
    expect(JSON.parse(outcome.structured ?? "")).toEqual({
      temperature: 36,
      conditions: "Light rain / drizzle",
      humidity: 82,
    });
    expect(outcome.display).toBe('{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}');
    // The model reads the text block the spec asks for, not the same data twice.
    expect(outcome.forModel).toContain(outcome.display);
    expect(outcome.forModel).not.toContain('"humidity": 82');
  });

  it("keeps a result whose structuredContent breaks the outputSchema and names the first mismatch", async () => {
    const outcome = await call("results", "get_weather_wrong");
    expect(outcome).toMatchObject({ ok: true, failure: undefined });
    expect(outcome.outputSchemaProblem).toBe(
      "The structuredContent does not match the tool's outputSchema in 2 places: at /temperature it must be number; at /conditions it must be string.",
    );
    expect(JSON.parse(outcome.structured ?? "")).toEqual({ temperature: "warm", conditions: 7 });
    expect(outcome.display).toBe('{"temperature":"warm","conditions":7}');
  });

  it("flags a tool with an outputSchema that returned no structuredContent, and keeps its text", async () => {
    const outcome = await call("results", "get_weather_missing");
    expect(outcome.ok).toBe(true);
    expect(outcome.structured).toBeUndefined();
    expect(outcome.outputSchemaProblem).toBe(
      "The tool has an outputSchema but returned no structuredContent, which the MCP spec requires.",
    );
    expect(outcome.display).toBe('{"temperature":21.5,"conditions":"sunny"}');
  });

  it("does not flag a result that keeps its schema, nor an error result without structure", async () => {
    const fine = await call("results", "get_weather");
    expect(fine.outputSchemaProblem).toBeUndefined();
    expect(JSON.parse(fine.structured ?? "")).toEqual({ temperature: 21.5, conditions: "sunny" });
    const failing = await call("results", "get_weather_failing");
    expect(failing).toMatchObject({
      ok: false,
      failure: "business",
      display: "the weather station is offline",
    });
    expect(failing.outputSchemaProblem).toBeUndefined();
  });

  it("lists and calls the tools of a server one of whose outputSchemas cannot be compiled", async () => {
    expect(manager.servers().find((server) => server.name === "results")?.status).toBe("connected");
    const outcome = await call("results", "get_weather_uncompilable");
    expect(outcome.ok).toBe(true);
    expect(outcome.outputSchemaProblem).toBeUndefined();
  });

  it("shows structured content with no blocks to the person as structure, and gives it to the model", async () => {
    const outcome = await call("results", "get_structured_only");
    expect(outcome.display).toBe("");
    expect(outcome.structured).toBe('{\n  "city": "Lisbon",\n  "days": [\n    1,\n    2\n  ]\n}');
    expect(outcome.forModel).toContain('"city": "Lisbon"');
  });

  it("redacts secrets in structured content, and leaves its escape sequences escaped as JSON", async () => {
    const outcome = await call("results", "get_structured_leak");
    expect(outcome.structured).not.toContain(FAKE_OPENAI_KEY);
    expect(outcome.structured).toContain("[REDACTED]");
    expect(outcome.redactions?.length).toBeGreaterThan(0);
    expect(outcome.structured).not.toContain("\u001b");
    expect(outcome.structured).toContain(String.raw`\u001b]52;c;`);
  });

  it("caps structured content like other result text, saying how much was cut", async () => {
    const outcome = await call("results", "get_structured_big", { items: 500 });
    expect(outcome.structured?.length).toBeLessThan(2_100);
    expect(outcome.structured).toMatch(/\n\[truncated: \d+ of \d+ characters omitted\]$/);
  });
});

describe("images and audio", () => {
  it("describes server-everything's tiny image by its type and decoded size, for the model and the person", async () => {
    const outcome = await call("everything", "get-tiny-image");
    const description = "[image: image/png, 3.9 KB; not shown to a text-only model]";
    expect(outcome.display).toBe(
      `Here's the image you requested:\n${description}\nThe image above is the MCP logo.`,
    );
    expect(outcome.forModel).toContain(description);
    expect(outcome.forModel).not.toMatch(/[A-Za-z0-9+/]{200}/);
    expect(outcome.attachments).toEqual(["image/png, 3.9 KB"]);
  });

  it("describes the image of server-everything's annotated message", async () => {
    const outcome = await call("everything", "get-annotated-message", {
      messageType: "success",
      includeImage: true,
    });
    expect(outcome.display).toContain("[image: image/png, 3.9 KB; not shown to a text-only model]");
  });

  it("describes images, audio and binary resources by type and size", async () => {
    const outcome = await call("results", "get_media");
    expect(outcome.display).toBe(
      [
        "three attachments:",
        "[image: image/png, 12.3 KB; not shown to a text-only model]",
        "[audio: audio/wav, 2.0 KB; not shown to a text-only model]",
        "[resource file:///report.bin: application/octet-stream, 500 B]",
      ].join("\n"),
    );
    expect(outcome.forModel).toContain("[audio: audio/wav, 2.0 KB; not shown to a text-only model]");
    expect(outcome.attachments).toEqual([
      "image/png, 12.3 KB",
      "audio/wav, 2.0 KB",
      "application/octet-stream, 500 B",
    ]);
  });
});

describe("a tool that requires a task", () => {
  it("runs as a task, and its result reaches the model like any other", async () => {
    const outcome = await call("everything", "simulate-research-query", { topic: "tides" });
    expect(outcome).toMatchObject({ ok: true, failure: undefined });
    expect(outcome.display).toContain("# Research Report: tides");
  });
});
