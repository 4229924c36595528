import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentEvent, ToolSelectionRecord } from "../../src/core/agent/events.js";
import { openSession } from "../../src/core/session/open-session.js";
import { tempDir, toolCatalogLaunch, writeJson } from "../support/fixtures.js";
import { waitFor } from "../support/poll.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { interactiveRequest } from "../support/session.js";
import { writeToolCatalogs } from "../support/tool-catalogs.js";

let dir: string;
const models: ScriptedModelServer[] = [];

beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

async function model(...replies: Parameters<ScriptedModelServer["enqueue"]>): Promise<ScriptedModelServer> {
  const server = await startScriptedModelServer(replies);
  models.push(server);
  return server;
}

async function selections(events: AsyncIterable<AgentEvent>): Promise<ToolSelectionRecord[]> {
  const found: ToolSelectionRecord[] = [];
  for await (const event of events)
    if (event.type === "model_request" && event.selection) found.push(event.selection);
  return found;
}

describe("what the model used is remembered by server and tool, not by the name it called", () => {
  it("a name that passes to another server's tool after a crash does not make that tool used", async () => {
    const cwd = path.join(dir, "crash");
    // Both tools are named a__get__c for the model; the first in config order keeps the plain name.
    const weather = await writeJson(path.join(dir, "a.catalog.json"), {
      name: "a",
      tools: [{ name: "get__c", description: "Reads the weather.", exitOnCall: true }],
    });
    const charge = await writeJson(path.join(dir, "a-get.catalog.json"), {
      name: "a__get",
      tools: [{ name: "c", description: "Charges the credit card." }],
    });
    await import("node:fs/promises").then((fs) => fs.mkdir(cwd));
    await writeJson(path.join(cwd, "mcp.config.json"), {
      tools: { search: { mode: "always" } },
      mcpServers: { a: toolCatalogLaunch(weather), a__get: toolCatalogLaunch(charge) },
    });
    const server = await model(
      { toolCalls: [{ id: "x1", name: "a__get__c", arguments: "{}" }] },
      { text: "ran it" },
      { text: "done" },
    );
    const runtime = await openSession(
      interactiveRequest({ trustConfig: true, model: { model: "m", baseUrl: server.baseUrl } }),
      { env: cleanEnv(), cwd },
    );
    try {
      await runtime.start().servers;
      // Server a cannot be started again once it has crashed (its catalog is gone), so the crash
      // recovery gives up on it and the name passes to a__get's tool.
      await rm(weather);
      const session = runtime.newSession(runtime.modelFor());
      const [first] = await selections(session.run("read the weather"));
      expect(first?.offered.map((entry) => entry.name)).toContain("a__get__c");
      await waitFor(
        () => runtime.tools.list().some((tool) => tool.server === "a__get" && tool.modelName === "a__get__c"),
        "a__get/c to be named a__get__c once server a has stopped",
      );
      const [again] = await selections(session.run("again please"));
      expect(again?.offered.map((entry) => entry.name)).not.toContain("a__get__c");
    } finally {
      await runtime.close();
    }
  });

  it("a resumed session offers as used only the calls that named an offered tool (the real binary)", async () => {
    const cwd = path.join(dir, "resume");
    await import("node:fs/promises").then((fs) => fs.mkdir(cwd));
    const catalogs = await writeToolCatalogs(cwd);
    await writeJson(path.join(cwd, "mcp.config.json"), { mcpServers: catalogs.servers });
    const run = async (server: ScriptedModelServer, ...more: string[]) =>
      runCli(
        [
          ...["-p", "add a meeting to my calendar", "--trust-config", "--no-kb", "--output", "json"],
          ...["--model", "m", "--base-url", server.baseUrl, ...more],
        ],
        { cwd, env: cleanEnv() },
      );
    const first = await model(
      {
        toolCalls: [
          { id: "c1", name: "calendar__get_meeting", arguments: '{"id":"m1"}' },
          { id: "c2", name: "crm__delete_deal", arguments: '{"id":"d1"}' },
          { id: "c3", name: "made_up__tool", arguments: "{}" },
        ],
      },
      { text: "Done." },
    );
    expect((await run(first)).code).toBe(0);

    const second = await model({ text: "ok" });
    const resumed = await run(second, "--continue");
    expect(resumed.code).toBe(0);
    const summary = JSON.parse(resumed.stdout) as {
      modelSteps: Array<{ toolSelection?: { offered: Array<{ name: string; reason: string }> } }>;
    };
    const reasons = Object.fromEntries(
      (summary.modelSteps[0]?.toolSelection?.offered ?? []).map((entry) => [entry.name, entry.reason]),
    );
    expect(reasons.calendar__get_meeting).toBe("used");
    expect(reasons.crm__delete_deal).toBeUndefined();
  });
});
