/**
 * Loading Node's fetch (undici) costs about 35 ms: a fifth of a one-shot run's time to the first
 * model request (issue 29), and as much again of every `mcpterm tools` or `call`. The chat request
 * and the context-window probe speak node:http, and node:http is required, not imported
 * (src/core/node-http.ts). A preload records which of Node's own modules a run loaded, and the
 * test reads the list.
 */
import { afterAll, describe, expect, it } from "vitest";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { fixtureLaunch, tempDir } from "../support/fixtures.js";
import { moduleRecorder } from "../support/module-recorder.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { embeddingsProject, startScriptedEmbeddingsServer } from "../support/scripted-embeddings-server.js";

const servers: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

/** Runs mcpterm with `args` (in `cwd`), returning Node's list of the modules the run loaded. */
async function loadedModules(
  args: string[],
  cwd?: string,
): Promise<{ code: number | null; stdout: string; loaded: string[] }> {
  const model = await startScriptedModelServer(() => ({ text: "hi there" }));
  servers.push(model);
  cwd ??= await tempDir();
  const recorder = await moduleRecorder(cwd);
  const env = cleanEnv({
    MCPTERM_MODEL: "m",
    OPENAI_BASE_URL: model.baseUrl,
    NODE_OPTIONS: recorder.nodeOptions,
  });
  const run = await runCli(args, { cwd, env });
  const loaded = recorder.loaded();
  return { code: run.code, stdout: run.stdout, loaded };
}

describe("a one-shot run", () => {
  it("asks the model and its context window without loading Node's fetch", async () => {
    const run = await loadedModules(["--no-kb", "-p", "hello"]);
    expect(run).toMatchObject({ code: 0, stdout: "hi there\n" });
    // The list is what it claims to be: the run did load node:http for its request.
    expect(run.loaded).toContain("NativeModule _http_client");
    expect(run.loaded.filter((name) => name.includes("undici"))).toEqual([]);
  });

  it("loads it no more as typed, the knowledge base on in a folder without one", async () => {
    const run = await loadedModules(["-p", "hello"]);
    expect(run.code).toBe(0);
    expect(run.loaded.filter((name) => name.includes("undici"))).toEqual([]);
  });
});

describe("a server author's command on a stdio server", () => {
  it.each([["tools"], ["call", "echo", '{"text":"x"}']])("%s loads no fetch either", async (...command) => {
    const launch = fixtureLaunch("no-undici");
    const run = await loadedModules([...command, "--", launch.command, ...launch.args]);
    expect(run.code).toBe(0);
    expect(run.loaded.filter((name) => name.includes("undici"))).toEqual([]);
  });
});

describe("a knowledge search by meaning", () => {
  it("asks the embeddings endpoint without loading Node's fetch", async () => {
    const embeddings = await startScriptedEmbeddingsServer();
    const cwd = await tempDir();
    try {
      await embeddingsProject(cwd, embeddings.baseUrl, {
        "garage.md": "# Garage\n\nChange the oil every 10,000 km.\n",
      });
      const run = await loadedModules(["kb", "search", "where do I take my car?"], cwd);
      expect(run.code).toBe(0);
      expect(embeddings.requests.length).toBeGreaterThan(0);
      expect(run.loaded.filter((name) => name.includes("undici"))).toEqual([]);
    } finally {
      await embeddings.close();
    }
  });
});
