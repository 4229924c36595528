import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import {
  embeddingsProject,
  startScriptedEmbeddingsServer,
  type ScriptedEmbeddingsServer,
} from "../support/scripted-embeddings-server.js";

const KEY = "sk-embed-CLI-7d2e9f0a31";
let server: ScriptedEmbeddingsServer;
let dir: string;

beforeAll(async () => {
  server = await startScriptedEmbeddingsServer();
  dir = await tempDir();
  await embeddingsProject(dir, server.baseUrl, {
    "garage.md": "# Garage\n\nAutomobile maintenance: change the oil every 10,000 km.\n",
  });
});
afterAll(async () => {
  await server.close();
});

const search = (query: string) =>
  runCli(["kb", "search", query], { cwd: dir, env: cleanEnv({ MCPTERM_EMBEDDINGS_API_KEY: KEY }) });

describe("mcpterm kb search with kb.embeddings", () => {
  it("finds a passage by meaning, and a failing endpoint falls back with one warning and no key shown", async () => {
    const found = await search("where do I take my car?");
    expect(found.code).toBe(0);
    expect(found.stdout).toMatch(/^\[1\] garage\.md:1-3 — Garage {2}\((strong|good|weak) \d+%\)/);
    expect(server.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);

    server.behave("nan");
    const fallback = await search("oil maintenance");
    expect(fallback.code).toBe(0);
    expect(fallback.stdout).toMatch(
      /^\[1\] garage\.md:1-3 — Garage {2}\(\w+ \d+%, matched oil, maintenance\)/,
    );
    const warnings = fallback.stderr.split("\n").filter((line) => line.includes("Embeddings are off"));
    expect(warnings).toHaveLength(1);
    expect(fallback.stderr + fallback.stdout).not.toContain(KEY);

    const unrelated = await search("tell me a joke");
    expect(unrelated.stdout).toBe('No passages match "tell me a joke".\n');
  });
});
