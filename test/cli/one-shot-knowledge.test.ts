import { existsSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * A one-shot run and the knowledge base: a folder without a knowledge folder has nothing to
 * search, so the run neither opens an index nor offers the model a search tool over nothing; a
 * knowledge folder that is there is opened and searched as before; a folder named with --kb that
 * is not there is said, not passed over in silence.
 */
let model: ScriptedModelServer;
beforeAll(async () => {
  model = await startScriptedModelServer(() => ({ text: "ok" }));
});
afterAll(() => model.close());

const env = (): NodeJS.ProcessEnv =>
  cleanEnv({ MCPTERM_MODEL: "scripted", OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "sk-test" });

/** The names of the tools the last model request offered. */
function offered(): string[] {
  const body = model.requests.at(-1)?.body as { tools?: Array<{ function: { name: string } }> } | undefined;
  return (body?.tools ?? []).map((tool) => tool.function.name);
}

describe("a one-shot run's knowledge base", () => {
  it("is off where there is no knowledge folder: no index made, no search tool offered", async () => {
    const dir = await tempDir();
    const run = await runCli(["-p", "hello"], { cwd: dir, env: env() });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(offered()).not.toContain("search_knowledge_base");
    expect(existsSync(path.join(dir, ".mcpterm", "kb"))).toBe(false);
  });

  it("is opened and offered where the folder is, with its passages in the request", async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, "knowledge_base"));
    await writeFile(
      path.join(dir, "knowledge_base", "pumpkin.md"),
      "# Garden\n\nThe secret word is pumpkin.\n",
    );
    const run = await runCli(["-p", "what is the secret word"], { cwd: dir, env: env() });
    expect(run.code).toBe(0);
    expect(offered()).toContain("search_knowledge_base");
    expect(JSON.stringify(model.requests.at(-1)?.body)).toContain("The secret word is pumpkin.");
  });

  it("says so when the folder named with --kb is not there, and answers without it", async () => {
    const dir = await tempDir();
    const run = await runCli(["--kb", "docs", "-p", "hello"], { cwd: dir, env: env() });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("ok");
    expect(run.stderr).toBe(
      "warning: The knowledge folder docs (--kb) does not exist; the knowledge base is off.\n",
    );
    expect(offered()).not.toContain("search_knowledge_base");
  });

  it("says so when the folder named with --kb is a file, or kb.dir names one that is not there", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "notes.md"), "not a folder\n");
    const file = await runCli(["--kb", "notes.md", "-p", "hello"], { cwd: dir, env: env() });
    expect(file.code).toBe(0);
    expect(file.stderr).toBe(
      "warning: The knowledge folder notes.md (--kb) is not a folder; the knowledge base is off.\n",
    );
    const below = await runCli(["--kb", "notes.md/docs", "-p", "hello"], { cwd: dir, env: env() });
    expect(below.code).toBe(0);
    expect(below.stderr).toBe(
      "warning: The knowledge folder notes.md/docs (--kb) does not exist; the knowledge base is off.\n",
    );
    await writeFile(path.join(dir, "mcp.config.json"), JSON.stringify({ kb: { dir: "docs" } }));
    const configured = await runCli(["-p", "hello"], { cwd: dir, env: env() });
    expect(configured.code).toBe(0);
    expect(configured.stderr).toMatch(
      /^warning: The knowledge folder docs \(kb\.dir in \S*mcp\.config\.json\) does not exist; the knowledge base is off\.\n$/,
    );
    expect(offered()).not.toContain("search_knowledge_base");
  });

  it("says why when the knowledge folder could not be opened: a link that leads outside", async () => {
    const dir = await tempDir();
    const outside = await tempDir();
    await writeFile(path.join(outside, "secret.md"), "private notes\n");
    await symlink(outside, path.join(dir, "knowledge_base"));
    const run = await runCli(["-p", "hello"], { cwd: dir, env: env() });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^warning: The knowledge base could not be opened: .*leads outside this project/,
    );
    expect(JSON.stringify(model.requests.at(-1)?.body)).not.toContain("private notes");
    // `tools --search` says it the same way, rather than ranking without the knowledge base unsaid.
    const search = await runCli(["tools", "--search", "notes"], { cwd: dir, env: env() });
    expect(search.code).toBe(0);
    expect(search.stderr).toMatch(
      /^warning: The knowledge base could not be opened: .*leads outside this project/m,
    );
    expect(search.stdout).not.toContain("private notes");
  });
});
