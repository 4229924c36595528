import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/** The confirmed/inferred parts through the real binary: asked for by default, off by config, fields in JSON. */
let model: ScriptedModelServer;

const ANSWER =
  "It is full.\n\n### Confirmed\n- df shows 100% [1]\n\n**Inferred (to verify):** rotation stopped";

beforeAll(async () => {
  model = await startScriptedModelServer(() => ({ text: ANSWER }));
});
afterAll(async () => {
  await model.close();
});

function systemPrompt(): string {
  const body = model.requests.at(-1)?.body as { messages: Array<{ role: string; content: string }> };
  return body.messages[0]?.content ?? "";
}

describe("confirmed and inferred parts in one-shot mode", () => {
  it("are asked for, and come out as fields of --output json", async () => {
    const dir = await tempDir("mcpterm-evidence-");
    // The turn reads a file of the working folder: something a confirmed part can rest on.
    await writeFile(path.join(dir, "df.txt"), "/dev/sda1 100% /\n");
    const env = cleanEnv({ OPENAI_BASE_URL: model.baseUrl, MCPTERM_MODEL: "scripted" });
    const run = await runCli(["--no-kb", "-p", "why? @df.txt", "--output", "json"], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    expect(systemPrompt()).toContain("**Confirmed:** what the tool results or passages show");
    expect(JSON.parse(run.stdout)).toMatchObject({
      answer: ANSWER,
      confirmed: "- df shows 100% [1]",
      inferred: "rotation stopped",
      attached: [expect.objectContaining({ kind: "file", name: "df.txt" })],
    });
  });

  it("leave out confirmed when nothing in the turn could confirm it (no tool, passage or attachment)", async () => {
    const dir = await tempDir("mcpterm-evidence-bare-");
    const env = cleanEnv({ OPENAI_BASE_URL: model.baseUrl, MCPTERM_MODEL: "scripted" });
    const run = await runCli(["--no-kb", "-p", "why?", "--output", "json"], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    const output = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(output).not.toHaveProperty("confirmed");
    expect(output).toMatchObject({ answer: ANSWER, inferred: "rotation stopped" });
  });

  it("are not asked for when answers.confirmedInferred is false", async () => {
    const dir = await tempDir("mcpterm-evidence-off-");
    await writeJson(path.join(dir, "mcp.config.json"), { answers: { confirmedInferred: false } });
    const env = cleanEnv({ OPENAI_BASE_URL: model.baseUrl, MCPTERM_MODEL: "scripted" });
    const run = await runCli(["--no-kb", "-p", "why?"], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    expect(systemPrompt()).not.toContain("Confirmed");
    // The answer itself is printed whole, as the model wrote it.
    expect(run.stdout).toBe(`${ANSWER}\n`);
  });
});
