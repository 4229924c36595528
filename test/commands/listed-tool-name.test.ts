import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpToolHost } from "../../src/core/agent/mcp-tool-host.js";
import type { CommandContext, CommandResult } from "../../src/core/commands/command-types.js";
import { SLASH_COMMANDS, runSlashCommand } from "../../src/core/commands/slash-commands.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { listedToolName } from "../../src/core/policy/tool-withhold.js";
import { serverConfig, tempDir } from "../support/fixtures.js";
import { raw2025ServerScript, WORK_TOOL } from "../support/raw-2025-server.js";

const LONG_NAME = `t${"x".repeat(4_999)}`;
const SHOWN = `t${"x".repeat(63)}… (5000 characters)`;
/** A name that draws as "evil" and one that draws as "getnote", whatever else they hold. */
const ESCAPED = "ev\u001b[31mil";
const HIDDEN = "get\u200bnote";
let manager: McpManager;
let context: CommandContext;

beforeAll(async () => {
  const script = path.join(await tempDir(), "long.mjs");
  await writeFile(
    script,
    raw2025ServerScript({
      tools: [
        { name: LONG_NAME, inputSchema: { type: "object" } },
        WORK_TOOL,
        { name: ESCAPED, inputSchema: { type: "object" } },
        { name: HIDDEN, inputSchema: { type: "object" } },
      ],
    }),
  );
  manager = new McpManager([serverConfig("long", { command: process.execPath, args: [script] })], {
    parentEnv: process.env,
  });
  await manager.start();
  const tools = new McpToolHost(manager);
  context = {
    manager,
    redactor: new SecretRedactor(),
    tools: () => tools.list(),
    knowledge: () => ({ state: "off", reason: "not used here" }),
    commands: SLASH_COMMANDS,
    clearConversation: () => true,
    traceFile: () => undefined,
    model: { current: () => "m", problem: () => undefined, switchTo: () => undefined },
  };
});

afterAll(() => manager.close());

function rows(result: CommandResult): string[][] {
  if (result.kind !== "table") throw new Error(`not a table: ${JSON.stringify(result).slice(0, 200)}`);
  return result.rows;
}

describe("a tool name a server sends, as /tools lists it", () => {
  it("is listed by /tools with its start and its length", async () => {
    const listed = rows(await runSlashCommand(context, "/tools"));
    expect(listed.map((row) => row[2])).toEqual([SHOWN, "work", "ev⟨U+001B⟩[31mil", "get⟨U+200B⟩note"]);
    expect(listed[0]?.[4]).toContain("not offered to the model: its name is 5000 characters");
  });

  it("is named the same way where /tools lists a server's tools for a name it does not know", async () => {
    const result = await runSlashCommand(context, "/tools long nothing");
    expect(result).toEqual({
      kind: "error",
      message: `Server "long" has no tool "nothing" right now (tools: ${SHOWN}, work, ev⟨U+001B⟩[31mil, get⟨U+200B⟩note).`,
    });
  });

  it("writes out a name's escapes and hidden characters, as mcpterm tools does, so no two look alike", () => {
    expect(listedToolName(ESCAPED)).toBe("ev⟨U+001B⟩[31mil");
    expect(listedToolName("\u202e".repeat(200))).toBe(`${"⟨U+202E⟩".repeat(64)}… (200 characters)`);
  });

  it("keeps a name MCP allows whole, 128 characters included", () => {
    const allowed = "n".repeat(128);
    expect(listedToolName(allowed)).toBe(allowed);
    expect(listedToolName(`${allowed}n`)).toBe(`${"n".repeat(64)}… (129 characters)`);
  });
});
