import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openKnowledgeBase, type KnowledgeBase } from "../../src/core/kb/index.js";
import { VECTORS_FILE_NAME } from "../../src/core/kb/vector-index.js";
import {
  startScriptedEmbeddingsServer,
  type EmbeddingsBehaviour,
  type ScriptedEmbeddingsServer,
} from "../support/scripted-embeddings-server.js";
import { makeWorkspace } from "./helpers.js";

const KEY = "sk-embed-TEST-4f9a1c7e2b";
const FILES = {
  "garage.md": "# Garage\n\nAutomobile maintenance: change the oil every 10,000 km and check the tyres.\n",
  "pets.md": "# Pets\n\nKittens need their vaccinations before they go outside.\n",
  "deploy.md": "# Deploy\n\nRoll back a failed release with deployctl rollback.\n",
};

let server: ScriptedEmbeddingsServer;
beforeEach(async () => {
  server = await startScriptedEmbeddingsServer();
});
afterEach(async () => {
  await server.close();
});

async function open(
  files: Record<string, string> = FILES,
  timeoutMs = 2_000,
): Promise<{ kb: KnowledgeBase; warnings: string[]; kbDir: string; indexDir: string }> {
  const { kbDir, indexDir } = await makeWorkspace(files);
  const warnings: string[] = [];
  const kb = await openKnowledgeBase({
    dir: kbDir,
    indexDir,
    embeddings: { model: "scripted", baseUrl: server.baseUrl, apiKey: KEY, timeoutMs },
    onWarning: (text) => warnings.push(text),
  });
  await kb.refresh();
  return { kb, warnings, kbDir, indexDir };
}

describe("hybrid retrieval with an embeddings endpoint", () => {
  it("finds a passage by meaning that no word of the question is in, and fuses it with keywords", async () => {
    const { kb, warnings } = await open();
    expect(kb.search("where do I take my car?")).toEqual([]);
    const [byMeaning] = await kb.retrieve("where do I take my car?");
    expect(byMeaning).toMatchObject({ path: "garage.md", matched: [] });
    expect(byMeaning?.relevance).toBeGreaterThan(0.5);
    // A keyword match that is also near in meaning comes first.
    expect((await kb.retrieve("rollback a failed release"))[0]?.path).toBe("deploy.md");
    expect(warnings).toEqual([]);
    expect(server.requests.every((request) => request.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it("gives an unrelated question nothing, by keywords or by meaning", async () => {
    const { kb } = await open();
    for (const message of ["tell me a joke", "ok, one more thing", "what time is it in Tokyo?"]) {
      expect([message, await kb.retrieve(message)]).toEqual([message, []]);
    }
  });

  it("stores vectors beside the index and embeds again only the file that changed", async () => {
    const { kbDir, indexDir } = await open();
    const first = server.requests.flatMap((request) => request.inputs);
    expect(first).toHaveLength(3);
    expect(JSON.parse(await readFile(path.join(indexDir, VECTORS_FILE_NAME), "utf8"))).toMatchObject({
      format: "mcpterm-kb-vectors",
      model: "scripted",
    });

    server.requests.length = 0;
    await writeFile(path.join(kbDir, "pets.md"), "# Pets\n\nFelines sleep most of the day.\n");
    const kb = await openKnowledgeBase({
      dir: kbDir,
      indexDir,
      embeddings: { model: "scripted", baseUrl: server.baseUrl, apiKey: KEY },
    });
    await kb.refresh();
    expect(server.requests.flatMap((request) => request.inputs)).toEqual([
      expect.stringContaining("Felines sleep"),
    ]);
    expect((await kb.retrieve("my cat"))[0]?.path).toBe("pets.md");
  });

  it("rebuilds a corrupt vectors file instead of failing", async () => {
    const { kbDir, indexDir } = await open();
    await writeFile(path.join(indexDir, VECTORS_FILE_NAME), '{"format":"mcpterm-kb-vectors","files":{"x":');
    server.requests.length = 0;
    const warnings: string[] = [];
    const kb = await openKnowledgeBase({
      dir: kbDir,
      indexDir,
      embeddings: { model: "scripted", baseUrl: server.baseUrl, apiKey: undefined },
      onWarning: (text) => warnings.push(text),
    });
    await kb.refresh();
    expect(server.requests.flatMap((request) => request.inputs)).toHaveLength(3);
    expect((await kb.retrieve("where do I take my car?"))[0]?.path).toBe("garage.md");
    expect(warnings).toEqual([]);
  });

  const lies: Array<[EmbeddingsBehaviour, RegExp]> = [
    ["wrong-dimensions", /dimensions/],
    ["nan", /not a finite number/],
    ["huge", /more than 64 MB/],
    ["stall", /did not finish its answer/],
    ["error", /HTTP 500/],
    ["too-few", /returned 0 vectors for 1 inputs/],
    ["not-json", /did not answer with JSON/],
  ];
  it.each(lies)(
    "an endpoint that turns to %s falls back to keyword search with one warning",
    async (behaviour, why) => {
      // Reading 64 MB takes a loaded machine seconds: only the stall needs the short limit.
      const { kb, warnings } = await open(FILES, behaviour === "huge" ? 60_000 : 1_500);
      server.behave(behaviour);
      const question = "rollback a failed release";
      expect(await kb.retrieve(question)).toEqual(kb.search(question));
      expect(await kb.retrieve("where do I take my car?")).toEqual([]);
      await kb.refresh();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(why);
      expect(warnings[0]).toMatch(/keywords only/);
      expect(warnings[0]).not.toContain(KEY);
    },
  );

  it("an endpoint that is down from the start leaves a working keyword knowledge base", async () => {
    server.behave("error");
    const { kb, warnings } = await open();
    expect((await kb.retrieve("rollback a failed release"))[0]?.path).toBe("deploy.md");
    expect(warnings).toEqual([expect.stringContaining("HTTP 500")]);
  });

  it("an endpoint whose vectors are of another size than the stored ones is refused", async () => {
    const { kb, warnings } = await open();
    server.behave("wrong-dimensions");
    await kb.retrieve("car");
    expect(warnings).toEqual([expect.stringMatching(/16 dimensions, expected 64/)]);
  });
});
