import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSlashCommand } from "../../src/core/commands/slash-commands.js";
import { openSession } from "../../src/core/session/open-session.js";
import {
  EVERYTHING_SERVER,
  fixtureLaunch,
  tempDir,
  toolCatalogLaunch,
  writeJson,
} from "../support/fixtures.js";
import { cleanEnv, trustingConfig } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { commandContext, interactiveRequest } from "../support/session.js";

const TASKS_REASON =
  "needs task-based execution, which its server does not offer for tool calls (capabilities.tasks.requests.tools.call)";
const TASKS = `not offered to the model: ${TASKS_REASON}`;
const APP_ONLY = "not offered to the model: app-only (MCP Apps)";

let dir: string;
const models: ScriptedModelServer[] = [];

beforeAll(async () => {
  dir = await tempDir();
  // A 2025 server whose tool claims to need a task, though the server offers no tasks.
  const catalog = await writeJson(path.join(dir, "catalog.json"), {
    name: "notasks",
    tools: [{ name: "needs_task", description: "Needs a task.", execution: { taskSupport: "required" } }],
  });
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] },
      fixture: fixtureLaunch(randomUUID()),
      // On 2025: 2026 has no execution.taskSupport (the server decides per call).
      notasks: { ...toolCatalogLaunch(catalog), protocol: "2025-11-25" },
    },
  });
});
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

const cli = (...args: string[]) => runInProcess(trustingConfig(args), { cwd: dir, env: cleanEnv() });

/** The line printed after the one that starts with `start`. */
function lineAfter(text: string, start: string): string | undefined {
  const lines = text.split("\n");
  const at = lines.findIndex((line) => line.startsWith(start));
  return at === -1 ? undefined : lines[at + 1];
}

describe("tools the model is not offered", () => {
  it("are listed by mcpterm tools with the reason: a task its server does not offer, app-only (MCP Apps)", async () => {
    const run = await cli("tools");
    expect(run.code).toBe(0);
    expect(lineAfter(run.stdout, "  needs_task  ")).toBe(`    ⚠ ${TASKS}`);
    // server-everything offers tasks for tool calls: its task-only tool runs as a task.
    expect(lineAfter(run.stdout, "  simulate-research-query  ")).not.toMatch(/⚠/);
    expect(lineAfter(run.stdout, "  refresh_panel  ")).toBe(`    ⚠ ${APP_ONLY}`);
    // Tools visible to the model as well as the app, or with no tasks required, carry no note.
    expect(lineAfter(run.stdout, "  show_panel  ")).not.toMatch(/⚠/);
    expect(lineAfter(run.stdout, "  get-sum  ")).not.toMatch(/⚠/);

    const json = JSON.parse((await cli("tools", "--json")).stdout) as {
      servers: Array<{ tools: Array<{ name: string; withheld?: string }> }>;
    };
    const withheld = Object.fromEntries(
      json.servers.flatMap((server) => server.tools).map((tool) => [tool.name, tool.withheld]),
    );
    expect(withheld).toMatchObject({ needs_task: TASKS_REASON, refresh_panel: "app-only (MCP Apps)" });
    expect(withheld["simulate-research-query"]).toBeUndefined();
    expect(withheld["get-sum"]).toBeUndefined();
    expect(withheld.show_panel).toBeUndefined();
  });

  it("are never sent to the model, while the rest are", async () => {
    const model = await startScriptedModelServer([{ text: "ok" }]);
    models.push(model);
    const run = await runInProcess(
      ["-p", "hi", "--trust-config", "--no-kb", "--model", "m", "--base-url", model.baseUrl],
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.code).toBe(0);
    const offered = (model.requests[0]?.body as { tools: Array<{ function: { name: string } }> }).tools.map(
      (tool) => tool.function.name,
    );
    expect(offered).toEqual(
      expect.arrayContaining([
        "everything__get-sum",
        "fixture__show_panel",
        "everything__simulate-research-query",
      ]),
    );
    expect(offered).not.toContain("notasks__needs_task");
    expect(offered).not.toContain("fixture__refresh_panel");
  });

  it("are shown with the reason in /tools", async () => {
    const runtime = await openSession(interactiveRequest({ trustConfig: true }), {
      env: cleanEnv(),
      cwd: dir,
    });
    try {
      await runtime.start().servers;
      const table = await runSlashCommand(commandContext(runtime), "/tools");
      const rows = table.kind === "table" ? table.rows : [];
      expect(rows.find((row) => row[2] === "needs_task")?.[4]).toContain(`⚠ ${TASKS}`);
      expect(rows.find((row) => row[2] === "refresh_panel")?.[4]).toContain(`⚠ ${APP_ONLY}`);
    } finally {
      await runtime.close();
    }
  });

  it("mcpterm call of a tool that needs a task its server does not offer says so in one sentence and exits 1, asking nothing", async () => {
    const run = await cli("call", "notasks/needs_task");
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'mcpterm: notasks/needs_task was not called: it can only run as an MCP task (its execution.taskSupport is "required"), and server "notasks" does not offer tasks for tool calls (capabilities.tasks.requests.tools.call).\n',
    );
  });

  it("mcpterm call still runs an app-only tool: a person calling it is not the model", async () => {
    const run = await cli("call", "fixture/refresh_panel");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("refreshed\n");
  });
});
