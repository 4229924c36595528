import { describe, expect, it } from "vitest";
import { tempDir } from "../support/fixtures.js";
import { rawAnswerCommand } from "../support/raw-answer-server.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * A server listing two tools under one name gave the model two functions of one model name, and
 * a call ran the first; names that differ only by an escape or a hidden character looked alike.
 */
const ANSWER = '{"jsonrpc":"2.0","id":"ID","result":{"content":[{"type":"text","text":"ran"}]}}';
const tool = (name: string, description: string) => ({
  name,
  description,
  inputSchema: { type: "object" },
  annotations: { readOnlyHint: true },
});

describe("tools of one server with the same name", () => {
  it("offers the first, and names the later one as not listed, with why (lint error)", async () => {
    const tools = [tool("get_echo", "the first"), tool("get_echo", "a second, different one")];
    const run = await runCli(["tools", "--", ...rawAnswerCommand(ANSWER, tools)], {
      cwd: await tempDir(),
      env: cleanEnv(),
    });
    expect(run.code).toBe(1);
    expect(run.stdout.match(/^ {2}get_echo {2}/gm)).toHaveLength(1);
    expect(run.stdout).toContain("the first");
    expect(run.stdout).not.toContain("a second, different one");
    expect(run.stdout).toMatch(
      /✗ error tool-not-listed {2}get_echo: Not listed: the server lists another tool by this name before it; only the first is offered\./,
    );
  });

  it("shows names that differ only by what cannot be seen as different", async () => {
    const tools = [
      tool("get_note", "plain"),
      tool("get_note\u001b[8m", "with an escape"),
      tool("get_note\u200b", "zero width"),
    ];
    const run = await runCli(["tools", "--", ...rawAnswerCommand(ANSWER, tools)], {
      cwd: await tempDir(),
      env: cleanEnv(),
    });
    expect(run.stdout).toMatch(/^ {2}get_note {2}\[/m);
    expect(run.stdout).toMatch(/^ {2}get_note⟨U\+001B⟩\[8m {2}\[/m);
    expect(run.stdout).toMatch(/^ {2}get_note⟨U\+200B⟩ {2}\[/m);
    // A finding names the tool it is about as the listing does.
    expect(run.stdout).toMatch(/✗ error hidden-unicode {2}get_note⟨U\+200B⟩: /);
  });
});
