import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estimateToolTokens } from "../../src/core/window/token-estimate.js";
import { tempDir, toolCatalogLaunch, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

let dir: string;
const models: ScriptedModelServer[] = [];

interface Request {
  tools?: Array<{ function: { name: string; description: string; parameters: Record<string, unknown> } }>;
}
const toolsIn = (request: { body: unknown } | undefined) =>
  (request?.body as Request | undefined)?.tools ?? [];

/** 60 repository tools of about 1,000 tokens each, every one documenting nine parameters. */
function forgeTools(): Array<{ name: string; description: string; inputSchema: Record<string, unknown> }> {
  const verbs = ["list", "get", "create", "update", "delete", "search"];
  const objects = [
    "issue",
    "pull_request",
    "branch",
    "release",
    "webhook",
    "deployment",
    "label",
    "milestone",
  ];
  const objectsAndMore = [...objects, "comment", "workflow"];
  return verbs.flatMap((verb) =>
    objectsAndMore.map((object) => ({
      name: `${verb}_${object}`,
      description: `${verb} ${object.replace("_", " ")}s in a repository of the forge. `.repeat(8),
      inputSchema: {
        type: "object",
        properties: Object.fromEntries(
          Array.from({ length: 9 }, (_, i) => [
            `option_${i}`,
            {
              type: "string",
              description: `Option ${i} of the ${object} request, as the forge documents it. `.repeat(5),
            },
          ]),
        ),
      },
    })),
  );
}

beforeAll(async () => {
  dir = await tempDir();
  const forge = await writeJson(path.join(dir, "forge.catalog.json"), { name: "forge", tools: forgeTools() });
  await writeJson(path.join(dir, "mcp.config.json"), {
    model: { contextWindow: 32_768 },
    mcpServers: { forge: toolCatalogLaunch(forge) },
  });
});
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

describe("found tools never push a request past the window (the real binary)", () => {
  it("two searches for twenty large tools each: every request fits, and the model is told which it gets", async () => {
    const server = await startScriptedModelServer([
      {
        toolCalls: [
          { id: "s1", name: "search_tools", arguments: '{"query":"list issues pull requests","limit":20}' },
        ],
      },
      {
        toolCalls: [
          { id: "s2", name: "search_tools", arguments: '{"query":"create webhook deployment","limit":20}' },
        ],
      },
      { text: "Done." },
    ]);
    models.push(server);
    const run = await runCli(
      [
        ...["-p", "help me with my repository", "--trust-config", "--no-kb", "--output", "json"],
        ...["--model", "m", "--base-url", server.baseUrl],
      ],
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.stderr).not.toMatch(/context window/);
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(3);
    for (const request of server.requests) {
      const specs = toolsIn(request).map((tool) => ({
        name: tool.function.name,
        description: tool.function.description,
        parameters: tool.function.parameters,
      }));
      expect(estimateToolTokens(specs)).toBeLessThanOrEqual(32_768 / 4);
    }

    const summary = JSON.parse(run.stdout) as { toolCalls: Array<{ name: string; result?: string }> };
    const answer = summary.toolCalls[1]?.result ?? "";
    const listed = [...answer.matchAll(/^- (forge__\w+) \((offered|not offered: no room)\)/gm)];
    const promised = listed.filter((match) => match[2] === "offered").map((match) => match[1]);
    const refused = listed.filter((match) => match[2] !== "offered").map((match) => match[1]);
    expect(promised.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    const last = toolsIn(server.requests[2]).map((tool) => tool.function.name);
    for (const name of promised) expect(last).toContain(name);
    for (const name of refused) expect(last).not.toContain(name);
  });
});
