import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/fixtures.js";
import { waitFor, waitForFileText } from "../support/poll.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedServerOptions,
} from "../support/scripted-model-server.js";

/** A vLLM-style listing: the window is max_model_len. */
const LISTING = { object: "list", data: [{ id: "scripted", object: "model", max_model_len: 50_000 }] };

const servers: ScriptedModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(options: ScriptedServerOptions): Promise<ScriptedModelServer> {
  const started = await startScriptedModelServer(() => ({ text: "done" }), { models: LISTING, ...options });
  servers.push(started);
  return started;
}

function ask(model: ScriptedModelServer, cwd: string, env: NodeJS.ProcessEnv, trace?: string) {
  const traced = trace ? ["--trace", trace] : [];
  return runCli(["-p", "hello", "--model", "scripted", "--base-url", model.baseUrl, ...traced], { cwd, env });
}

/** The context window the run's first model_request went with, from its trace. */
async function firstRequestWindow(trace: string): Promise<unknown> {
  const records = (await readFile(trace, "utf8"))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; contextWindow?: number });
  return records.find((record) => record.type === "model_request")?.contextWindow;
}

describe("the context-window probe", () => {
  it("runs beside the first chat request: a stalled GET /v1/models does not hold it back", async () => {
    const model = await server({ stallModels: true });
    const cwd = await tempDir();
    const running = ask(model, cwd, cleanEnv());
    await waitFor(
      () => model.requests.length > 0 && model.events.includes("GET /v1/models"),
      "the chat request and the listing",
    );
    // The chat request came while the listing was asked for and still unanswered (not given up
    // on): nothing happened to the listing before it. The two arrive a fraction of a millisecond
    // apart, in either order; after the chat request the run may end and give the listing up.
    const beforeChat = model.events.slice(0, model.events.indexOf("POST /v1/chat/completions"));
    expect(beforeChat.filter((event) => event !== "GET /v1/models")).toEqual([]);
    model.releaseModels();
    const run = await running;
    expect(run).toMatchObject({ code: 0, stdout: "done\n" });
  });

  it("is remembered per endpoint and model in the user's cache folder, so the next run does not ask", async () => {
    const cwd = await tempDir();
    const cache = path.join(cwd, "cache");
    const file = path.join(cache, "mcpterm", "context-windows.json");
    // The first answer waits for the window to be kept: a one-shot run that ends first keeps none.
    const kept = waitForFileText(file, "50000", 10_000);
    // Not kept within 10 s, the answer goes out anyway, and the checks below say what is missing.
    kept.catch(() => undefined);
    const model = await startScriptedModelServer(
      (_request, index) => (index === 0 ? { until: kept, text: "done" } : { text: "done" }),
      { models: LISTING },
    );
    servers.push(model);
    const env = cleanEnv({ XDG_CACHE_HOME: cache });
    const first = await ask(model, cwd, env, path.join(cwd, "first.jsonl"));
    expect(first).toMatchObject({ code: 0, stdout: "done\n" });
    expect(model.events.filter((event) => event === "GET /v1/models")).toHaveLength(1);

    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // Kept by a hash: a base URL may hold a password.
    expect(await readFile(file, "utf8")).not.toContain("127.0.0.1");

    const second = await ask(model, cwd, env, path.join(cwd, "second.jsonl"));
    expect(second).toMatchObject({ code: 0, stdout: "done\n" });
    expect(model.events.filter((event) => event === "GET /v1/models")).toHaveLength(1);
    // The remembered window is there before the first request.
    expect(await firstRequestWindow(path.join(cwd, "second.jsonl"))).toBe(50_000);

    // Another model on the same endpoint is asked about.
    const other = await runCli(["-p", "hello", "--model", "other", "--base-url", model.baseUrl], {
      cwd,
      env,
    });
    expect(other.code).toBe(0);
    expect(model.events.filter((event) => event === "GET /v1/models")).toHaveLength(2);
  });
});
