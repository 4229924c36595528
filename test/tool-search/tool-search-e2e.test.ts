import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSlashCommand } from "../../src/core/commands/slash-commands.js";
import { openSession } from "../../src/core/session/open-session.js";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, trustingConfig } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { commandContext, interactiveRequest } from "../support/session.js";
import { writeToolCatalogs } from "../support/tool-catalogs.js";

let dir: string;
let toolCount = 0;
const models: ScriptedModelServer[] = [];

interface Request {
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{ role: string; content: string | null }>;
}

const offeredIn = (request: { body: unknown } | undefined): string[] =>
  ((request?.body as Request | undefined)?.tools ?? []).map((tool) => tool.function.name);

beforeAll(async () => {
  dir = await tempDir();
  const catalogs = await writeToolCatalogs(dir);
  toolCount = catalogs.toolCount;
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { ...catalogs.servers, fixture: fixtureLaunch("tool-search") },
  });
  await writeJson(path.join(dir, "small.config.json"), {
    mcpServers: { fixture: fixtureLaunch("tool-search") },
  });
  // The fixture server's own tools that may be offered count too.
  const listed = await runInProcess(trustingConfig(["tools", "--config", "small.config.json", "--json"]), {
    cwd: dir,
    env: cleanEnv(),
  });
  const fixture = JSON.parse(listed.stdout) as { servers: Array<{ tools: Array<{ withheld?: string }> }> };
  toolCount += fixture.servers
    .flatMap((entry) => entry.tools)
    .filter((tool) => tool.withheld === undefined).length;
});
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

async function drain(events: AsyncIterable<unknown>): Promise<void> {
  for await (const _event of events);
}

async function model(...replies: Parameters<ScriptedModelServer["enqueue"]>): Promise<ScriptedModelServer> {
  const server = await startScriptedModelServer(replies);
  models.push(server);
  return server;
}

describe("tool search over hundreds of tools on tens of real stdio servers", () => {
  it("offers only the selected tools and search_tools; a found tool is offered next and approved by its tier; a held-back one never runs", async () => {
    const server = await model(
      {
        toolCalls: [{ id: "c1", name: "search_tools", arguments: '{"query":"delete a file in the drive"}' }],
      },
      {
        toolCalls: [
          { id: "c2", name: "drive__delete_file", arguments: '{"id":"f1"}' },
          { id: "c3", name: "crm__get_contact", arguments: '{"id":"x"}' },
        ],
      },
      { text: "Done." },
    );
    const trace = path.join(dir, "turn.jsonl");
    const run = await runInProcess(
      [
        ...["-p", "add a meeting to my calendar", "--trust-config", "--no-kb", "--output", "json"],
        ...["--model", "m", "--base-url", server.baseUrl, "--approve", "dangerous", "--trace", trace],
      ],
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.code).toBe(0);

    const first = offeredIn(server.requests[0]);
    expect(first).toContain("search_tools");
    expect(first).toContain("calendar__create_meeting");
    expect(first.length).toBeLessThanOrEqual(11);
    // The found tool is there from the next step on, and the held-back one is not.
    const second = offeredIn(server.requests[1]);
    expect(second).toContain("drive__delete_file");
    expect(second).not.toContain("crm__get_contact");

    const summary = JSON.parse(run.stdout) as {
      toolCalls: Array<{ name: string; tier?: string; approvedBy?: string; ok?: boolean; result?: string }>;
      modelSteps: Array<{
        toolSelection?: { total: number; offered: Array<{ name: string; reason: string }>; heldBack: number };
      }>;
    };
    const calls = Object.fromEntries(summary.toolCalls.map((call) => [call.name, call]));
    expect(calls.search_tools).toMatchObject({ ok: true, tier: "read_only" });
    expect(calls.search_tools?.result).toContain("drive__delete_file");
    expect(calls.drive__delete_file).toMatchObject({ ok: true, tier: "dangerous", approvedBy: "flag" });
    expect(calls.drive__delete_file?.result).toBe('drive/delete_file ran with {"id":"f1"}');
    expect(calls.crm__get_contact).toMatchObject({ ok: false });
    expect(calls.crm__get_contact?.approvedBy).toBeUndefined();
    expect(calls.crm__get_contact?.result).toContain("is not offered in this step");
    // What the model was told of the refused call points it to search_tools.
    const toolMessages = (server.requests[2]?.body as Request).messages.filter(
      (message) => message.role === "tool",
    );
    expect(toolMessages.at(-1)?.content).toContain("Call search_tools");

    const [step1, step2] = summary.modelSteps;
    expect(step1?.toolSelection?.total).toBe(toolCount);
    expect(step1?.toolSelection?.offered).toContainEqual(
      expect.objectContaining({ name: "calendar__create_meeting", reason: "score" }),
    );
    expect(step2?.toolSelection?.offered).toContainEqual({
      name: "drive__delete_file",
      reason: "found",
      score: expect.any(Number) as number,
    });
    expect(step2?.toolSelection?.offered).toContainEqual(
      expect.objectContaining({ name: "search_tools", reason: "always" }),
    );

    const records = (await readFile(trace, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type?: string; selection?: { offered: unknown[] } });
    const requests = records.filter((record) => record.type === "model_request");
    expect(requests).toHaveLength(3);
    expect(requests.every((record) => (record.selection?.offered.length ?? 0) > 0)).toBe(true);
    const tree = await runInProcess(["trace", trace], { cwd: dir, env: cleanEnv() });
    expect(tree.stdout).toMatch(
      new RegExp(`\\d+ tools offered: \\d+ of ${toolCount} selected, and mcpterm's own`),
    );
  });

  it("below the budget offers every tool as before, without search_tools", async () => {
    const server = await model({ text: "ok" });
    const run = await runInProcess(
      [
        "-p",
        "hi",
        "--config",
        "small.config.json",
        "--trust-config",
        "--no-kb",
        "--model",
        "m",
        "--base-url",
        server.baseUrl,
      ],
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.code).toBe(0);
    const offered = offeredIn(server.requests[0]);
    expect(offered).not.toContain("search_tools");
    expect(offered).toEqual(expect.arrayContaining(["fixture__echo", "fixture__sum"]));
    expect(run.stderr).not.toMatch(/^tools: /m);
  });

  it("says on stderr, once a turn, how many tools a one-shot turn offered", async () => {
    const server = await model({ text: "ok" });
    const run = await runInProcess(
      ["-p", "weather forecast", "--trust-config", "--no-kb", "--model", "m", "--base-url", server.baseUrl],
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.code).toBe(0);
    const lines = run.stderr.split("\n").filter((line) => line.startsWith("tools: "));
    expect(lines).toEqual([
      `tools: ${offeredIn(server.requests[0]).length - 1} of ${toolCount} offered to the model, and search_tools to find the rest (${toolCount} tools, more than tools.search.maxTools (60))`,
    ]);
  });

  it("/tools shows what the last request offered and held back, and why; /tools pin offers a tool in every request", async () => {
    const server = await model({ text: "ok" }, { text: "ok" });
    const runtime = await openSession(
      interactiveRequest({ trustConfig: true, model: { model: "m", baseUrl: server.baseUrl } }),
      { env: cleanEnv(), cwd: dir },
    );
    try {
      await runtime.start().servers;
      const context = commandContext(runtime);
      const session = runtime.newSession(runtime.modelFor());
      await drain(session.run("what is the weather forecast"));
      const table = await runSlashCommand(context, "/tools");
      if (table.kind !== "table") throw new Error("expected a table");
      expect(table.columns.at(-1)).toBe("last request");
      const row = (server: string, tool: string) =>
        table.rows.find((entry) => entry[0] === server && entry[2] === tool);
      expect(row("weather", "get_forecast")?.[5]).toMatch(/^offered: score \d+\.\d\d \(.*forecast.*\)$/);
      expect(row("crm", "delete_deal")?.[5]).toBe("held back (no match)");
      expect(row("mcpterm", "search_tools")?.[5]).toBe("offered: built-in");
      expect(table.note).toMatch(
        new RegExp(`the last one offered \\d+ of ${toolCount}, besides mcpterm's own tools and search_tools`),
      );

      const pinned = await runSlashCommand(context, "/tools pin crm/delete_deal");
      expect(pinned).toMatchObject({ kind: "text" });
      await drain(session.run("what is the weather forecast"));
      expect(offeredIn(server.requests[1])).toContain("crm__delete_deal");
      const after = await runSlashCommand(context, "/tools crm");
      expect(after.kind === "table" && after.rows.find((entry) => entry[2] === "delete_deal")?.[5]).toBe(
        "offered: pinned",
      );
      expect(await runSlashCommand(context, "/tools pin nowhere")).toMatchObject({ kind: "error" });
    } finally {
      await runtime.close();
    }
  });

  it("mcpterm tools --search ranks the tools for several requests in one run, the same each time", async () => {
    const args = [
      "tools",
      "--search",
      "list my open pull requests",
      "--search",
      "现在的天气",
      "--search",
      "I need to refund someone",
      "--json",
    ];
    const run = await runInProcess(trustingConfig(args), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as {
      queries: Array<{
        query: string;
        selection: { on: boolean; total: number };
        ranked: Array<{ name: string; score: number; matched: string[]; offered: boolean }>;
      }>;
    };
    expect(result.queries.map((query) => query.query)).toEqual([
      "list my open pull requests",
      "现在的天气",
      "I need to refund someone",
    ]);
    const [pulls, chinese, refund] = result.queries;
    expect(pulls?.selection).toMatchObject({ on: true, total: toolCount });
    expect(pulls?.ranked[0]).toMatchObject({ name: "github__list_pull_request", offered: true });
    expect(pulls?.ranked[0]?.matched).toEqual(expect.arrayContaining(["list", "pull"]));
    expect(chinese?.ranked).toEqual([]);
    expect(refund?.ranked.slice(0, 5).map((entry) => entry.name)).toContain("billing__create_refund");
    const again = await runInProcess(trustingConfig(args), { cwd: dir, env: cleanEnv() });
    expect(again.stdout).toBe(run.stdout);

    const text = await runInProcess(trustingConfig(["tools", "--search", "list my open pull requests"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(text.stdout).toMatch(/^"list my open pull requests": \d+ of \d+ tools offered, and search_tools/);
    expect(text.stdout).toMatch(/ ✓ {2}1\. github\/list_pull_request {2}\d+\.\d\d {2}matched /);
  });

  it("mcpterm tools --search names a server that failed to start, whose tools are in no list", async () => {
    await writeJson(path.join(dir, "broken.config.json"), {
      mcpServers: {
        fixture: fixtureLaunch("tool-search"),
        weather: { command: "node", args: ["-e", "process.exit(3)"] },
      },
    });
    const run = await runInProcess(
      trustingConfig(["tools", "--config", "broken.config.json", "--search", "weather forecast"]),
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/^warning: weather failed — .*exit.*; its tools are not in these lists\.$/m);
    expect(run.stdout).toContain('"weather forecast": every tool is offered');
    expect(run.stdout).toMatch(
      /^\(weather failed to start — .*exit.*; its tools are in none of these lists\)$/m,
    );
    const json = await runInProcess(
      trustingConfig(["tools", "--config", "broken.config.json", "--search", "weather forecast", "--json"]),
      { cwd: dir, env: cleanEnv() },
    );
    expect(json.code).toBe(4);
    const { failedServers } = JSON.parse(json.stdout) as {
      failedServers?: Array<{ name: string; error: string }>;
    };
    expect(failedServers?.map((server) => server.name)).toEqual(["weather"]);
    expect(failedServers?.[0]?.error).toMatch(/exit/);
  });
});
