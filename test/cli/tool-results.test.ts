import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { EVERYTHING_SERVER, resultsLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, trustingConfig } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/**
 * Structured content, the outputSchema check and media descriptions in what one-shot mode, the
 * trace and `mcpterm call` print, against the results fixture and server-everything.
 */
const WRONG =
  "The structuredContent does not match the tool's outputSchema in 2 places: at /temperature it must be number; at /conditions it must be string.";

let dir: string;
const models: ScriptedModelServer[] = [];

beforeAll(async () => {
  dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      results: resultsLaunch(randomUUID()),
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] },
    },
  });
});
afterAll(() => Promise.all(models.map((model) => model.close())));

/** A model that calls each tool in turn, one per step, then answers. */
async function callingModel(
  ...calls: Array<[string, Record<string, unknown>]>
): Promise<ScriptedModelServer> {
  const model = await startScriptedModelServer([
    ...calls.map(([name, args], index) => ({
      toolCalls: [{ id: `c${index + 1}`, name, arguments: JSON.stringify(args) }],
    })),
    { text: "Done." },
  ]);
  models.push(model);
  return model;
}

function oneShot(
  model: ScriptedModelServer,
  ...extra: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return runInProcess(
    [
      "-p",
      "check the tools",
      "--trust-config",
      "--no-kb",
      "--model",
      "m",
      "--base-url",
      model.baseUrl,
      ...extra,
    ],
    { cwd: dir, env: cleanEnv() },
  );
}

interface SummaryCall {
  name: string;
  ok: boolean;
  result: string;
  structuredContent?: string;
  outputSchemaProblem?: string;
  attachments?: string[];
}

describe("one-shot mode", () => {
  it("--output json carries each call's structured content and its outputSchema problem", async () => {
    const model = await callingModel(
      ["results__get_weather_wrong", {}],
      ["everything__get-structured-content", { location: "New York" }],
      ["results__get_structured_leak", {}],
    );
    const run = await oneShot(model, "--output", "json");
    expect(run.code).toBe(0);
    const calls = (JSON.parse(run.stdout) as { toolCalls: SummaryCall[] }).toolCalls;
    expect(calls[0]).toMatchObject({
      name: "results__get_weather_wrong",
      ok: true,
      result: '{"temperature":"warm","conditions":7}',
      structuredContent: '{\n  "temperature": "warm",\n  "conditions": 7\n}',
      outputSchemaProblem: WRONG,
    });
    expect(calls[1]?.outputSchemaProblem).toBeUndefined();
    expect(JSON.parse(calls[1]?.structuredContent ?? "")).toEqual({
      temperature: 33,
      conditions: "Cloudy",
      humidity: 82,
    });
    expect(calls[2]?.structuredContent).toContain("[REDACTED]");
    expect(run.stdout).not.toContain(FAKE_OPENAI_KEY);
  });

  it("--output stream-json carries them in tool_result; text mode prints the problem under the call", async () => {
    const streamed = await oneShot(
      await callingModel(["results__get_weather_missing", {}]),
      "--output",
      "stream-json",
    );
    const result = streamed.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; outputSchemaProblem?: string; structured?: string })
      .find((event) => event.type === "tool_result");
    expect(result?.outputSchemaProblem).toBe(
      "The tool has an outputSchema but returned no structuredContent, which the MCP spec requires.",
    );
    expect(result?.structured).toBeUndefined();

    const text = await oneShot(
      await callingModel(["results__get_weather_wrong", {}], ["results__get_weather", {}]),
    );
    expect(text.code).toBe(0);
    expect(text.stderr).toMatch(
      new RegExp(
        String.raw`^✓ results/get_weather_wrong \{\} \(\d+ ms\)\n  ⚠ ${escape(WRONG)}\n✓ results/get_weather \{\} \(\d+ ms\)\n$`,
      ),
    );
  });

  it("gives the model images and audio as their type and size, never their base64", async () => {
    const model = await callingModel(["everything__get-tiny-image", {}], ["results__get_media", {}]);
    const run = await oneShot(model, "--output", "json");
    expect(run.code).toBe(0);
    const toolMessages = (
      model.requests.at(-1)?.body as { messages: Array<{ role: string; content: string }> }
    ).messages
      .filter((message) => message.role === "tool")
      .map((message) => message.content);
    expect(toolMessages[0]).toContain("[image: image/png, 3.9 KB; not shown to a text-only model]");
    expect(toolMessages[1]).toContain("[image: image/png, 12.3 KB; not shown to a text-only model]");
    expect(toolMessages[1]).toContain("[audio: audio/wav, 2.0 KB; not shown to a text-only model]");
    expect(toolMessages.join("")).not.toMatch(/[A-Za-z0-9+/]{200}/);
    const calls = (JSON.parse(run.stdout) as { toolCalls: SummaryCall[] }).toolCalls;
    expect(calls[1]?.result).toContain("[resource file:///report.bin: application/octet-stream, 500 B]");
    expect(calls.map((call) => call.attachments)).toEqual([
      ["image/png, 3.9 KB"],
      ["image/png, 12.3 KB", "audio/wav, 2.0 KB", "application/octet-stream, 500 B"],
    ]);
  });

  it("records structured content and the problem in the trace, and mcpterm trace shows them", async () => {
    const trace = path.join(dir, `trace-${randomUUID()}.jsonl`);
    const run = await oneShot(await callingModel(["results__get_weather_wrong", {}]), "--trace", trace);
    expect(run.code).toBe(0);
    const tree = await runInProcess(["trace", trace], { cwd: dir, env: cleanEnv() });
    expect(tree.code).toBe(0);
    expect(tree.stdout).toContain('structured { "temperature": "warm", "conditions": 7 }');
    expect(tree.stdout).toContain(`⚠ ${WRONG}`);
    const json = await runInProcess(["trace", trace, "--json"], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(json.stdout).toContain(JSON.stringify(WRONG));
  });

  it("keeps a result's secret out of the trace, in the raw result and the frame that brought it", async () => {
    const trace = path.join(dir, `trace-${randomUUID()}.jsonl`);
    const run = await oneShot(await callingModel(["results__get_structured_leak", {}]), "--trace", trace);
    expect(run.code).toBe(0);
    const text = await readFile(trace, "utf8");
    const raw = text.split("\n").find((line) => line.includes('"type":"raw_result"'));
    expect(raw).toContain('"OPENAI_API_KEY":"[REDACTED]"');
    expect(text).not.toContain(FAKE_OPENAI_KEY.slice(8));
  });
});

describe("mcpterm call", () => {
  it("prints a result that breaks its outputSchema, with the problem on stderr, and exits 0", async () => {
    const run = await runInProcess(trustingConfig(["call", "results/get_weather_wrong"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('{"temperature":"warm","conditions":7}');
    // Every mismatch, one a line.
    expect(run.stderr).toContain(
      "warning: The structuredContent does not match the tool's outputSchema in 2 places:\n  at /temperature: it must be number\n  at /conditions: it must be string\n",
    );
    const json = await runInProcess(trustingConfig(["call", "results/get_weather_missing", "--json"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      isError: false,
      outputSchemaProblems: [
        "The tool has an outputSchema but returned no structuredContent, which the MCP spec requires.",
      ],
    });
    expect(json.stderr).toContain("warning: The tool has an outputSchema but returned no structuredContent");
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
