import { afterAll, describe, expect, it } from "vitest";
import type { ChatModel } from "../../src/core/llm/types.js";
import { openSession } from "../../src/core/session/open-session.js";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv } from "../support/run-cli.js";
import { interactiveRequest } from "../support/session.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const models: ScriptedModelServer[] = [];
afterAll(() => Promise.all(models.map((model) => model.close())));

/** What asking `model` anything fails with. */
async function failureOf(model: ChatModel): Promise<string> {
  try {
    for await (const _event of model.stream({ messages: [{ role: "user", content: "hi" }], tools: [] })) {
      // Nothing is expected: the endpoint answers 404.
    }
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the request did not fail");
}

describe("a session's models, as a 404 names them", () => {
  it("names the setting the model came from, and /model for one chosen in the TUI", async () => {
    const endpoint = await startScriptedModelServer(() => ({ status: 404 }));
    models.push(endpoint);
    const runtime = await openSession(
      interactiveRequest({ model: { model: "m", baseUrl: endpoint.baseUrl } }),
      { env: cleanEnv(), cwd: await tempDir() },
    );
    try {
      expect(await failureOf(runtime.modelFor())).toContain("check the model (--model)");
      // A resumed session names the settings' own model: it still came from --model.
      expect(await failureOf(runtime.modelFor("m"))).toContain("check the model (--model)");
      expect(await failureOf(runtime.modelFor("other"))).toContain("check the model (/model)");
    } finally {
      await runtime.close();
    }
  });
});
