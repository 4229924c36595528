import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandContext, CommandResult } from "../../src/core/commands/command-types.js";
import { runSlashCommand } from "../../src/core/commands/slash-commands.js";
import { catalogsSettled } from "../../src/core/context/catalog-view.js";
import { openSession, type SessionRuntime } from "../../src/core/session/open-session.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { catalogLaunch, EVERYTHING_SERVER, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv } from "../support/run-cli.js";
import { commandContext, interactiveRequest } from "../support/session.js";

const marker = randomUUID();
let runtime: SessionRuntime;
let context: CommandContext;

beforeAll(async () => {
  const dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] },
      catalog: catalogLaunch(marker),
      fixture: fixtureLaunch(marker),
      broken: { command: "no-such-mcp-server-command" },
    },
  });
  runtime = await openSession(interactiveRequest({ trustConfig: true }), { env: cleanEnv(), cwd: dir });
  await runtime.start().servers;
  await catalogsSettled(runtime.manager);
  context = commandContext(runtime);
});

afterAll(async () => {
  await runtime.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

function run(input: string): Promise<CommandResult> {
  return runSlashCommand(context, input);
}

function rows(result: CommandResult): string[] {
  if (result.kind !== "table") throw new Error(`expected a table, got ${JSON.stringify(result)}`);
  return result.rows.map((row) => row.join(" | "));
}

function text(result: CommandResult): string {
  if (result.kind === "table") return rows(result).join("\n");
  return result.kind === "text" ? result.text : result.message;
}

describe("/resources, /prompts and /read", () => {
  it("lists each server's resources and templates, and why a server shows none", async () => {
    const listed = rows(await run("/resources"));
    expect(listed).toContain(
      "everything | resource | demo://resource/static/document/architecture.md | architecture.md | text/markdown | Static document file exposed from /docs: architecture.md",
    );
    expect(listed).toContainEqual(
      expect.stringMatching(
        /^everything \| template \| demo:\/\/resource\/dynamic\/text\/\{resourceId\} \| Dynamic Text Resource \| text\/plain \| Plaintext dynamic resource .*…$/,
      ),
    );
    expect(listed.filter((row) => row.startsWith("everything | "))).toHaveLength(9);
    expect(listed).toContain("fixture |  |  |  |  | offers no resources");
    expect(listed.find((row) => row.startsWith("broken"))).toMatch(
      /^broken \| {2}\| {2}\| {2}\| {2}\| failed: /,
    );
  });

  it("shows one server's, redacted and cleaned of terminal controls", async () => {
    const listed = rows(await run("/resources catalog"));
    expect(listed).toContain(
      "catalog | resource | catalog://leak | leaky red | text/plain | Holds OPENAI_API_KEY=[REDACTED]",
    );
    expect(listed.join("\n")).not.toContain(FAKE_OPENAI_KEY);
    expect(await run("/resources nope")).toEqual({
      kind: "error",
      message: 'There is no server named "nope" (servers: everything, catalog, fixture, broken).',
    });
  });

  it("lists the prompts as the commands that run them", async () => {
    const listed = rows(await run("/prompts everything"));
    expect(listed).toEqual([
      "everything | /everything:simple-prompt | Simple Prompt — A prompt with no arguments",
      "everything | /everything:args-prompt <city> [state] | Arguments Prompt — A prompt with two arguments, one required and one optional",
      "everything | /everything:completable-prompt <department> <name> | Team Management — First argument choice narrows values for second argument.",
      "everything | /everything:resource-prompt <resourceType> <resourceId> | Resource Prompt — A prompt that includes an embedded resource reference",
    ]);
    expect(rows(await run("/prompts fixture"))).toEqual(["fixture |  | offers no prompts"]);
  });

  it("lists the prompts in /help after mcpterm's own commands", async () => {
    expect(rows(await run("/help"))).toContain(
      "/everything:args-prompt <city> [state] | Arguments Prompt — A prompt with two arguments, one required and one optional",
    );
  });

  it("reads a resource, a template's URI and a resource link's target", async () => {
    const doc = text(await run("/read everything demo://resource/static/document/architecture.md"));
    expect(doc).toMatch(
      /^demo:\/\/resource\/static\/document\/architecture\.md \(text\/markdown\)\n# Everything Server/,
    );
    expect(text(await run("/read everything demo://resource/dynamic/text/5"))).toContain(
      "Resource 5: This is a plaintext",
    );
    expect(text(await run("/read catalog catalog://notes/alpha"))).toContain("# Note alpha");
    expect(text(await run("/read catalog catalog://pixel.png"))).toContain(
      "[image/png, 300 B; binary content",
    );
  });

  it("shows what it read redacted and cleaned", async () => {
    const leak = text(await run("/read catalog catalog://leak"));
    expect(leak).toContain("OPENAI_API_KEY=[REDACTED]");
    expect(leak).not.toContain(FAKE_OPENAI_KEY);
    expect(leak.includes("\u001b") || leak.includes("\u202e")).toBe(false);
  });

  it.each([
    ["/read", "Usage: /read <server> <uri>"],
    ["/read everything", "Usage: /read <server> <uri>"],
    ["/read nope x://y", 'There is no server named "nope" (servers: everything, catalog, fixture, broken).'],
    ["/read broken x://y", /^Server "broken" has failed; try \/mcp restart broken\.$/],
    ["/read everything demo://nope", /^Reading demo:\/\/nope from "everything" failed: .*not found/],
  ])("%s is an error", async (input, message) => {
    const result = await run(input);
    expect(result.kind).toBe("error");
    if (typeof message === "string") expect(text(result)).toBe(message);
    else expect(text(result)).toMatch(message);
  });
});

describe("/mcp for resources, prompts, instructions and logs", () => {
  it("counts each server's resources, templates and prompts", async () => {
    const result = await run("/mcp");
    if (result.kind !== "table") throw new Error("expected a table");
    expect(result.columns).toEqual(expect.arrayContaining(["tools", "resources", "prompts"]));
    const column = (name: string): number => result.columns.indexOf(name);
    const everything = result.rows.find((row) => row[0] === "everything") ?? [];
    expect([everything[column("resources")], everything[column("prompts")]]).toEqual([
      "7 + 2 templates",
      "4",
    ]);
    const fixture = result.rows.find((row) => row[0] === "fixture") ?? [];
    expect([fixture[column("resources")], fixture[column("prompts")]]).toEqual(["0", "0"]);
  });

  it("shows a server's capabilities and its instructions in /mcp info", async () => {
    const info = text(await run("/mcp info everything"));
    expect(info).toMatch(/^everything · connected · stdio · pid \d+\n/);
    expect(info).toContain("offers: ");
    expect(info).toContain("resources (subscribe, listChanged)");
    expect(info).toContain("prompts (listChanged)");
    expect(info).toMatch(/tools \d+ · resources 7 \+ 2 templates · prompts 4/);
    expect(info).toMatch(
      /instructions, from the server and given to the model as its own.*:\n {2}# Everything Server – Server Instructions/,
    );
    expect(text(await run("/mcp info fixture"))).toContain("instructions: none");
    expect(text(await run("/mcp info broken"))).toMatch(/^broken · failed · stdio\nlast error: /);
  });

  it("sets a server's log level, and /mcp logs shows the messages with their time and level", async () => {
    expect(await run("/mcp loglevel everything debug")).toEqual({
      kind: "text",
      text: 'Asked "everything" to send log messages from debug up; /mcp logs everything shows them.',
    });
    const connection = runtime.manager.connection("everything");
    await runtime.manager.callTool("everything", "toggle-simulated-logging", {});
    try {
      for (let tries = 0; tries < 200; tries++) {
        if (connection?.logEntries().some((entry) => entry.logger !== "mcpterm")) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      await runtime.manager.callTool("everything", "toggle-simulated-logging", {});
    }
    const logs = text(await run("/mcp logs everything"));
    expect(logs).toMatch(/^ {2}\d\d:\d\d:\d\d\.\d{3} \[info\] mcpterm: log level set to debug$/m);
    expect(logs).toMatch(/^ {2}\d\d:\d\d:\d\d\.\d{3} \[[a-z]+\] [A-Z][a-z]+[- ]level/m);
  });

  it.each([
    [
      "/mcp loglevel everything",
      /^Usage: \/mcp loglevel everything <level>, where level is one of debug, info, notice, warning, error, critical, alert, emergency\.$/,
    ],
    ["/mcp loglevel everything loud", /where level is one of debug/],
    ["/mcp loglevel", /^Usage: \/mcp loglevel <server> <level>$/],
    [
      "/mcp loglevel fixture info",
      /^Setting the log level of "fixture" failed: server "fixture" does not offer logging$/,
    ],
    ["/mcp info", /^Usage: \/mcp info <server>$/],
  ])("%s is an error", async (input, message) => {
    const result = await run(input);
    expect(result.kind).toBe("error");
    expect(text(result)).toMatch(message);
  });
});
