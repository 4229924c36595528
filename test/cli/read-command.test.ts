import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EVERYTHING_SERVER, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";

let dir: string;
const cli = (...args: string[]) => runInProcess(trustingConfig(args), { cwd: dir, env: cleanEnv() });
/** The real binary, so one case checks the code the process itself exits with. */
const binary = (...args: string[]) => runCli(trustingConfig(args), { cwd: dir, env: cleanEnv() });

beforeAll(async () => {
  dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] },
      broken: { command: "no-such-mcp-server-command" },
    },
  });
});

describe("mcpterm read", () => {
  it("prints a text resource and exits 0", async () => {
    const run = await cli("read", "everything", "demo://resource/static/document/architecture.md");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^# Everything Server/);
  });

  it("prints the raw result with --json", async () => {
    const run = await cli("read", "everything", "demo://resource/static/document/architecture.md", "--json");
    expect(JSON.parse(run.stdout)).toMatchObject({
      contents: [{ uri: "demo://resource/static/document/architecture.md" }],
    });
  });

  it("exits 1 for a resource the server does not have, 4 for a server that cannot start, 2 for an unknown server", async () => {
    const missing = await binary("read", "everything", "demo://nope");
    expect(missing.code).toBe(1);
    // The server's McpError already says "MCP error -32602:"; the client's must not say it again.
    expect(missing.stderr).toBe(
      'mcpterm: Reading demo://nope from "everything" failed: MCP error -32602: Resource demo://nope not found.\n',
    );
    expect((await cli("read", "broken", "x://y")).code).toBe(4);
    expect((await cli("read", "nope", "x://y")).code).toBe(2);
  });

  it("with --json, says a failed read as data on stdout too, with its class", async () => {
    const missing = await cli("read", "everything", "demo://nope", "--json");
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toEqual({
      server: "everything",
      uri: "demo://nope",
      error:
        'Reading demo://nope from "everything" failed: MCP error -32602: Resource demo://nope not found.',
      // The server's answer: the URI asked for is not one it has.
      failure: "invalid_args",
    });
    const broken = await cli("read", "broken", "x://y", "--json");
    expect(broken.code).toBe(4);
    expect(JSON.parse(broken.stdout)).toMatchObject({ server: "broken", failure: "transient" });
    const unknown = await cli("read", "nope", "x://y", "--json");
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ server: "nope", failure: "invalid_args" });
  });
});
