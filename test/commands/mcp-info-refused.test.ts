import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSlashCommand } from "../../src/core/commands/slash-commands.js";
import { openSession, type SessionRuntime } from "../../src/core/session/open-session.js";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv } from "../support/run-cli.js";
import { commandContext, interactiveRequest } from "../support/session.js";

const marker = randomUUID();
let runtime: SessionRuntime;

beforeAll(async () => {
  const dir = await tempDir();
  // The notes fixture with a sixth tool whose inputSchema is an array: not valid MCP.
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      notes: {
        command: process.execPath,
        args: [compiledFixture("author-server"), `--marker=${marker}`],
        env: { AUTHOR_BUG: "array-schema" },
      },
    },
  });
  runtime = await openSession(interactiveRequest({ trustConfig: true }), { env: cleanEnv(), cwd: dir });
  await runtime.start().servers;
});

afterAll(async () => {
  await runtime.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

describe("/mcp info", () => {
  it("names a tool the server lists that mcpterm set aside, and why, beside the count of those kept", async () => {
    const result = await runSlashCommand(commandContext(runtime), "/mcp info notes");
    if (result.kind !== "text") throw new Error(`expected text, got ${JSON.stringify(result)}`);
    const lines = result.text.split("\n");
    expect(lines).toContain("tools 5 · resources 2 · prompts 1");
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^! tool "export_notes" not listed: its definition is not valid MCP \(inputSchema\.type: .*"object".*\)$/,
      ),
    );
  });
});
