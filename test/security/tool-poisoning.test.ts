import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runSlashCommand } from "../../src/core/commands/slash-commands.js";
import { openSession } from "../../src/core/session/open-session.js";
import { tempDir, writeJson } from "../support/fixtures.js";
import { HIDDEN_INSTRUCTION, HOSTILE_TOKEN, hostileLaunch } from "../support/hostile.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { commandContext, interactiveRequest } from "../support/session.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const models: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

async function project(): Promise<string> {
  const dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { hostile: hostileLaunch(randomUUID()) },
  });
  return dir;
}

describe("a poisoned tool description", () => {
  it("reaches the model cut to 4,000 characters with invisible characters removed", async () => {
    const dir = await project();
    const model = await startScriptedModelServer([{ text: "ok" }]);
    models.push(model);
    const run = await runCli(["-p", "x", "--trust-config", "--model", "m", "--base-url", model.baseUrl], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.code).toBe(0);
    const tools = (
      model.requests[0]?.body as {
        tools: Array<{ function: { name: string; description: string; parameters: unknown } }>;
      }
    ).tools;
    const poisoned =
      tools.find((tool) => tool.function.name === "hostile__poisoned_lookup")?.function.description ?? "";
    expect(poisoned.length).toBeLessThanOrEqual(4_100);
    expect(poisoned).toMatch(/^Looks things up\. Looks things up\./);
    expect(poisoned).toMatch(/\[description cut\]$/);
    expect(poisoned).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2060-\u2064]/);
    expect(poisoned).not.toContain(HIDDEN_INSTRUCTION);
    // The schema is read by the model as much as the description is.
    const schema = JSON.stringify(
      tools.find((tool) => tool.function.name === "hostile__poisoned_lookup")?.function.parameters,
    );
    const query = (JSON.parse(schema) as { properties: { q: { title: string; description: string } } })
      .properties.q;
    expect(query.title).toBe("Query");
    expect(query.description.length).toBeLessThanOrEqual(1_010);
    expect(query.description).toMatch(/^Looks things up\. .*… \[cut\]$/);
    expect(schema).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2060-\u2064]|\udb40/);
    expect(schema).not.toContain(HIDDEN_INSTRUCTION);
    expect(schema).not.toContain(HOSTILE_TOKEN);
    // A tool whose property names hide text is not offered at all.
    expect(tools.map((tool) => tool.function.name)).not.toContain("hostile__named_lookup");
    // An ordinary description is sent as it is.
    expect(tools.find((tool) => tool.function.name === "hostile__send_message")?.function.description).toBe(
      "Send a message to a person.",
    );
  });

  it("is flagged in /tools and in the tool's own view", async () => {
    const dir = await project();
    const runtime = await openSession(interactiveRequest({ trustConfig: true }), {
      env: cleanEnv(),
      cwd: dir,
    });
    try {
      await runtime.start().servers;
      const context = commandContext(runtime);
      const table = JSON.stringify(await runSlashCommand(context, "/tools hostile"));
      expect(table).toMatch(
        /poisoned_lookup.*⚠ \d+ invisible or control characters removed from its description; its description was cut from [\d,]+ to 4,000 characters before the model saw it/,
      );
      expect(table).toMatch(
        /named_lookup.*⚠ not offered to the model: a property name in its input schema holds hidden characters/,
      );
      const one = await runSlashCommand(context, "/tools hostile poisoned_lookup");
      expect(one.kind === "text" && one.text).toMatch(/⚠ its description was cut from/);
      expect(JSON.stringify(one)).not.toContain(HIDDEN_INSTRUCTION);
    } finally {
      await runtime.close();
    }
  });
});
