import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { ToolCallError } from "../../src/core/mcp/tool-call-error.js";
import type { WireFrame } from "../../src/core/mcp/types.js";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { serverConfig, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/**
 * A stdio server that exits in the middle of a call on its first start and comes back with one
 * more tool (test/fixtures/restarting-server.ts), driven through the real binary: what is sent
 * again, what the model and the person are told, and that the session goes on with the new list.
 */
const models: ScriptedModelServer[] = [];
const managers: McpManager[] = [];
afterAll(async () => {
  await Promise.all([...models.map((model) => model.close()), ...managers.map((each) => each.close())]);
});

interface Project {
  dir: string;
  /** The tool calls the server received, in order, across its starts. */
  calls(): Promise<string[]>;
  starts(): Promise<number>;
}

async function project(trust: boolean): Promise<Project> {
  const dir = await tempDir();
  const state = await tempDir("mcpterm-restarting-");
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      restarting: {
        command: process.execPath,
        args: [compiledFixture("restarting-server"), `--marker=${randomUUID()}`],
        env: { RESTART_STATE_DIR: state },
        trust,
      },
    },
  });
  const lines = async (file: string): Promise<string[]> =>
    (await readFile(path.join(state, file), "utf8").catch(() => "")).split("\n").filter(Boolean);
  return { dir, calls: () => lines("calls"), starts: async () => (await lines("starts")).length };
}

/** A model that calls each tool in turn, one per step, then answers. */
async function callingModel(...tools: string[]): Promise<ScriptedModelServer> {
  const model = await startScriptedModelServer([
    ...tools.map((name, index) => ({
      toolCalls: [{ id: `c${index + 1}`, name, arguments: "{}" }],
    })),
    { text: "Done." },
  ]);
  models.push(model);
  return model;
}

interface SummaryCall {
  name: string;
  ok: boolean;
  failure?: string;
  result: string;
}

async function oneShot(
  where: Project,
  model: ScriptedModelServer,
): Promise<{ code: number | null; calls: SummaryCall[]; answer: string; stderr: string }> {
  const run = await runCli(
    [
      "-p",
      "check the server",
      "--trust-config",
      "--no-kb",
      "--approve",
      "dangerous",
      "--model",
      "m",
      "--base-url",
      model.baseUrl,
      "--output",
      "json",
    ],
    { cwd: where.dir, env: cleanEnv() },
  );
  const summary = JSON.parse(run.stdout) as { toolCalls: SummaryCall[]; answer: string };
  return { code: run.code, calls: summary.toolCalls, answer: summary.answer, stderr: run.stderr };
}

/** The tool messages the model was sent, in order. */
function toolMessages(model: ScriptedModelServer): string[] {
  const last = model.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
  return last.messages.filter((message) => message.role === "tool").map((message) => String(message.content));
}

function offeredTools(model: ScriptedModelServer, request: number): string[] {
  const body = model.requests[request]?.body as { tools?: Array<{ function: { name: string } }> };
  return (body.tools ?? []).map((tool) => tool.function.name);
}

describe("a server that exits during a call and comes back", () => {
  it("sends a read-only call of a trusted server once more, and offers the tool the restart brought", async () => {
    const where = await project(true);
    const model = await callingModel("restarting__read_status", "restarting__new_tool");
    const run = await oneShot(where, model);

    expect(run.code).toBe(0);
    expect(run.calls.map(({ ok, result }) => ({ ok, result }))).toEqual([
      { ok: true, result: "status ok (start 2)" },
      { ok: true, result: "the new tool works" },
    ]);
    expect(await where.calls()).toEqual(["read_status", "read_status", "new_tool"]);
    expect(await where.starts()).toBe(2);
    expect(offeredTools(model, 0)).not.toContain("restarting__new_tool");
    expect(offeredTools(model, 1)).toContain("restarting__new_tool");
    expect(run.answer).toBe("Done.");
  });

  it("never sends a write again: the model and the person are told the result is unknown, and the session goes on", async () => {
    const where = await project(true);
    const model = await callingModel("restarting__write_record", "restarting__new_tool");
    const run = await oneShot(where, model);

    const unknown =
      'the result is unknown: server "restarting" exited during the call; the call was not sent again';
    expect(run.calls[0]).toMatchObject({ ok: false, failure: "transient" });
    expect(run.calls[0]?.result).toContain(unknown);
    expect(toolMessages(model)[0]).toContain(unknown);
    // The session went on, with the server back and its new tool.
    expect(run.calls[1]).toMatchObject({ ok: true, result: "the new tool works" });
    expect(await where.calls()).toEqual(["write_record", "new_tool"]);
    expect(run.answer).toBe("Done.");
  });

  it("does not take an untrusted server's readOnlyHint as leave to send a call again", async () => {
    const where = await project(false);
    const model = await callingModel("restarting__read_status");
    const run = await oneShot(where, model);

    expect(run.calls[0]).toMatchObject({ ok: false, failure: "transient" });
    expect(run.calls[0]?.result).toContain(
      'the result is unknown: server "restarting" exited during the call',
    );
    expect(await where.calls()).toEqual(["read_status"]);
    expect(run.answer).toBe("Done.");
  });
});

describe("a result whose content is not an array", () => {
  it("is the server's protocol failure, named as such and never sent again, even when re-sending would be safe", async () => {
    const where = await project(true);
    const model = await callingModel("restarting__malformed");
    const run = await oneShot(where, model);

    expect(run.calls[0]).toMatchObject({ ok: false, failure: "protocol" });
    expect(run.calls[0]?.result).toMatch(/server "restarting" broke the MCP protocol .*content/s);
    expect(toolMessages(model)[0]).toMatch(/broke the MCP protocol/);
    expect(await where.calls()).toEqual(["malformed"]);
  });

  it("fails `mcpterm call` with one sentence naming the server's fault", async () => {
    const where = await project(true);
    const run = await runCli(["call", "restarting/malformed", "--trust-config"], {
      cwd: where.dir,
      env: cleanEnv(),
    });

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^mcpterm: server "restarting" broke the MCP protocol \(its answer is not a valid result/,
    );
    expect(run.stdout).toBe("");
    expect(await where.calls()).toEqual(["malformed"]);
  });
});

describe("a 2026 server that exits during a call", () => {
  it("is discovered again (server/discover, no initialize) and its tools work; the call's result is unknown", async () => {
    const frames: WireFrame[] = [];
    const manager = new McpManager(
      [
        serverConfig("modern", {
          command: process.execPath,
          args: [compiledFixture("modern-server"), `--marker=${randomUUID()}`],
          env: { FIXTURE_EXIT_TOOL: "1" },
        }),
      ],
      { parentEnv: process.env, onWire: (frame) => frames.push(frame) },
    );
    managers.push(manager);
    await manager.start();
    expect(manager.servers()[0]).toMatchObject({ status: "connected", era: "modern" });
    const sent = (method: string): number =>
      frames.filter(
        (frame) => frame.direction === "send" && (frame.message as { method?: string }).method === method,
      ).length;
    expect(sent("server/discover")).toBe(1);

    const failure = await manager.callTool("modern", "exit_now", {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolCallError);
    expect((failure as ToolCallError).message).toMatch(
      /^the result is unknown: server "modern" exited during the call; .*the server is back/,
    );
    expect(sent("tools/call")).toBe(1);

    expect(manager.servers()[0]).toMatchObject({ status: "connected", era: "modern" });
    expect(sent("server/discover")).toBe(2);
    expect(sent("initialize")).toBe(0);
    const echoed = await manager.callTool("modern", "echo", { text: "back" });
    expect(echoed.content).toEqual([{ type: "text", text: "back" }]);
  });
});
