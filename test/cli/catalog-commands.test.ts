import { randomUUID } from "node:crypto";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FAKE_LINEAR_KEY, FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { catalogLaunch, EVERYTHING_SERVER, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";

const marker = randomUUID();
let dir: string;
const cli = (...args: string[]) => runInProcess(trustingConfig(args), { cwd: dir, env: cleanEnv() });

beforeAll(async () => {
  dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] },
      catalog: catalogLaunch(marker),
      fixture: fixtureLaunch(marker),
      broken: { command: "no-such-mcp-server-command" },
    },
  });
});

describe("mcpterm resources", () => {
  it("lists every server's resources and templates, says which offer none or failed, and exits 4 for the failure", async () => {
    const run = await cli("resources");
    expect(run.code).toBe(4);
    expect(run.stdout).toMatch(/^everything: 7 resources, 2 templates$/m);
    expect(run.stdout).toContain(
      "  demo://resource/static/document/architecture.md  architecture.md  text/markdown\n      Static document file exposed from /docs: architecture.md",
    );
    expect(run.stdout).toContain(
      "  template demo://resource/dynamic/text/{resourceId}  Dynamic Text Resource  text/plain",
    );
    expect(run.stdout).toMatch(/^fixture: offers no resources$/m);
    expect(run.stdout).toMatch(/^broken: failed: .*no-such-mcp-server-command/m);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("shows what a server lists cleaned of secrets and terminal controls", async () => {
    const run = await cli("resources", "catalog");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^catalog: 3 resources, 1 template$/m);
    expect(run.stdout).toContain(
      "  catalog://leak  leaky red  text/plain\n      Holds OPENAI_API_KEY=[REDACTED]\n",
    );
    expect(run.stdout).not.toContain(FAKE_OPENAI_KEY);
    expect(run.stdout.includes("\u001b") || run.stdout.includes("\u200b")).toBe(false);
  });

  it("gives the whole definitions as JSON, redacted", async () => {
    const run = await cli("resources", "catalog", "--json");
    expect(run.code).toBe(0);
    // Like tools --json: no terminal control survives, and invisible characters are written out.
    expect(run.stdout).not.toContain("\u001b");
    expect(run.stdout).not.toContain("\u200b");
    expect(run.stdout).toContain("⟨U+200B⟩");
    const report = JSON.parse(run.stdout) as {
      servers: Array<{
        name: string;
        status: string;
        offered: boolean;
        resources: unknown[];
        resourceTemplates: unknown[];
      }>;
    };
    expect(report.servers).toHaveLength(1);
    expect(report.servers[0]).toMatchObject({
      name: "catalog",
      status: "connected",
      offered: true,
      resourceTemplates: [{ name: "note", uriTemplate: "catalog://notes/{name}", mimeType: "text/markdown" }],
    });
    expect(report.servers[0]?.resources).toContainEqual({
      name: "pixel",
      uri: "catalog://pixel.png",
      mimeType: "image/png",
    });
    expect(run.stdout).not.toContain(FAKE_OPENAI_KEY);
  });

  it("exits 2 naming the servers for one that is not configured", async () => {
    const run = await cli("resources", "nope");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /There is no server named "nope" in .*mcp\.config\.json \(servers: everything, catalog, fixture, broken\)/,
    );
  });
});

describe("mcpterm prompts", () => {
  it("lists each prompt as its command with its arguments, and which are required", async () => {
    const run = await runCli(trustingConfig(["prompts", "everything"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      [
        "everything: 4 prompts",
        "  /everything:simple-prompt",
        "      Simple Prompt — A prompt with no arguments",
        "  /everything:args-prompt <city> [state]",
        "      Arguments Prompt — A prompt with two arguments, one required and one optional",
        "      city (required): Name of the city",
        "      state",
      ].join("\n"),
    );
    expect(run.stdout).toContain("  /everything:resource-prompt <resourceType> <resourceId>");
  });

  it("gives the whole definitions as JSON, and exits 4 when a server failed", async () => {
    const run = await cli("prompts", "--json");
    expect(run.code).toBe(4);
    const report = JSON.parse(run.stdout) as {
      servers: Array<{ name: string; offered?: boolean; prompts: unknown[] }>;
    };
    expect(report.servers.map((server) => [server.name, server.offered, server.prompts.length])).toEqual([
      ["everything", true, 4],
      ["catalog", true, 2],
      ["fixture", false, 0],
      ["broken", undefined, 0],
    ]);
    expect(report.servers[0]?.prompts).toContainEqual({
      name: "completable-prompt",
      title: "Team Management",
      description: "First argument choice narrows values for second argument.",
      arguments: [
        { name: "department", description: "Choose the department.", required: true },
        {
          name: "name",
          description: "Choose a team member to lead the selected department.",
          required: true,
        },
      ],
    });
  });
});

describe("a server's content printed by the developer commands", () => {
  it("holds no secret only the full rule set finds, as text or as --json alike", async () => {
    const runs = [
      await cli("read", "catalog", "catalog://leak"),
      await cli("read", "catalog", "catalog://leak", "--json"),
      await cli("prompts", "catalog", "leaky"),
      await cli("prompts", "catalog", "leaky", "--json"),
      await cli(
        "call",
        "fixture/echo",
        JSON.stringify({ text: FAKE_LINEAR_KEY }),
        "--allow-secret-arguments",
        "--json",
      ),
      await cli(
        "call",
        "fixture/echo",
        JSON.stringify({ text: FAKE_LINEAR_KEY }),
        "--allow-secret-arguments",
      ),
    ];
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("[REDACTED]");
      expect(run.stdout + run.stderr).not.toContain(FAKE_LINEAR_KEY.slice(8));
    }
  });
});
