import { writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSession } from "../../src/core/session/open-session.js";
import type { TrustQuestion } from "../../src/core/person/trust-question.js";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { personWho } from "../support/person.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { interactiveRequest } from "../support/session.js";
import {
  startScriptedEmbeddingsServer,
  type ScriptedEmbeddingsServer,
} from "../support/scripted-embeddings-server.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const servers: Array<ScriptedEmbeddingsServer | ScriptedModelServer> = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

/**
 * A cloned repository with a server, a note, and an embeddings endpoint of its choosing. The
 * endpoint is this machine's listener reached as 0.0.0.0, which mcpterm cannot tell from a
 * server elsewhere (it is no loopback name), so it is treated as one off this machine.
 */
async function repo(): Promise<{ dir: string; embeddings: ScriptedEmbeddingsServer; url: string }> {
  const embeddings = await startScriptedEmbeddingsServer();
  servers.push(embeddings);
  const url = embeddings.baseUrl.replace("127.0.0.1", "0.0.0.0");
  const dir = await tempDir();
  await mkdir(path.join(dir, "knowledge_base"));
  await writeFile(path.join(dir, "knowledge_base", "plans.md"), "# Plans\n\nThe confidential merger plan.\n");
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { fixture: fixtureLaunch("embeddings-trust") },
    kb: { embeddings: { model: "e", baseUrl: url } },
  });
  return { dir, embeddings, url };
}

describe("a project's kb.embeddings.baseUrl off this machine is trusted with the config", () => {
  it("one-shot mode names it in its refusal, and sends it nothing", async () => {
    const { dir, embeddings, url } = await repo();
    const model = await startScriptedModelServer([{ text: "unused" }]);
    servers.push(model);
    const run = await runCli(["-p", "the merger plan", "--model", "m", "--base-url", model.baseUrl], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `and send your messages and notes to ${url} (off this machine), its kb.embeddings.baseUrl; check them and rerun with --trust-config to allow it.`,
    );
    expect(embeddings.requests).toHaveLength(0);
    expect(model.requests).toHaveLength(0);
  });

  it.each([false, true])(
    "in the TUI, the question names it; answered %s, it gets the notes only with a yes",
    async (yes) => {
      const { dir, embeddings, url } = await repo();
      const asked: TrustQuestion[] = [];
      const runtime = await openSession(
        interactiveRequest({ kb: true }),
        { env: cleanEnv(), cwd: dir },
        {
          person: personWho({
            trustConfig: (question) => {
              asked.push(question);
              return Promise.resolve(yes);
            },
          }),
        },
      );
      try {
        const started = runtime.start();
        await Promise.all([started.servers, started.knowledge]);
        expect(asked).toHaveLength(1);
        expect(asked[0]?.summary).toBe(
          "wants to start or connect to 1 server and send your messages and notes to the embeddings endpoint it names",
        );
        expect(asked[0]?.entries.at(-1)).toEqual({
          line: `embeddings endpoint: ${url} (kb.embeddings.baseUrl) would receive your messages and your notes (it is off this machine)`,
          warnings: [],
        });
        await runtime.knowledge.search("merger plan");
        expect(embeddings.requests.length > 0).toBe(yes);
      } finally {
        await runtime.close();
      }
    },
  );
});
