/**
 * The engine's own cost, as ratios against a floor measured in the same run on the same machine:
 *
 * - model step: `runTurn` streaming a long answer from the scripted OpenAI-compatible server,
 *   against reading the very same SSE response with plain `fetch` (the floor: network + parsing
 *   that any client pays).
 * - tool call: `McpManager.callTool` on the fixture server, against the MCP SDK's own `Client`
 *   with its stdio transport calling the same tool on the same kind of process, in the same
 *   protocol revision (lib/tool-paths.ts, sdkPath).
 *
 *   npx tsx bench/engine-bench.ts
 */
import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { ToolAllowances } from "../src/core/policy/tool-allowances.js";
import { NOBODY } from "../src/core/person/person.js";
import { SchemaValidator } from "../src/core/policy/schema-validator.js";
import { runTurn } from "../src/core/agent/run-turn.js";
import type { ToolHost } from "../src/core/agent/tool-host.js";
import { createOpenAiChatModel } from "../src/core/llm/openai-chat-model.js";
import type { ChatMessage } from "../src/core/llm/types.js";
import { McpManager } from "../src/core/mcp/mcp-manager.js";
import { compileFixtures } from "../test/support/compiled-fixtures.js";
import { fixtureLaunch, serverConfig } from "../test/support/fixtures.js";
import { startScriptedModelServer } from "../test/support/scripted-model-server.js";
import { assertModern, sdkPath } from "./lib/tool-paths.js";

const ROUNDS = 30;
const TOOL_CALLS = 300;
const ANSWER = "The quick brown fox jumps over the lazy dog. ".repeat(400);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function timeIt(rounds: number, run: () => Promise<void>): Promise<number> {
  await run();
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

async function modelStep(): Promise<{ floor: number; engine: number }> {
  const server = await startScriptedModelServer(() => ({ text: ANSWER, chunkSize: 8 }));
  const noTools: ToolHost = { list: () => [], call: () => Promise.reject(new Error("no tools")) };
  const model = createOpenAiChatModel({ model: "bench", baseUrl: server.baseUrl, apiKey: "k" });
  try {
    const floor = await timeIt(ROUNDS, async () => {
      const response = await fetch(`${server.baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: "go" }] }),
      });
      let text = "";
      for (const line of (await response.text()).split("\n")) {
        if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
        const chunk = JSON.parse(line.slice(6)) as { choices: Array<{ delta?: { content?: string } }> };
        text += chunk.choices[0]?.delta?.content ?? "";
      }
      if (text.length !== ANSWER.length) throw new Error("floor read a different answer");
    });
    const engine = await timeIt(ROUNDS, async () => {
      const conversation: ChatMessage[] = [];
      for await (const event of runTurn({
        input: "go",
        turn: 1,
        conversation,
        model,
        tools: noTools,
        approval: { project: [], settings: [], flagged: [], interactive: true },
        allowances: new ToolAllowances(),
        person: NOBODY,
        validator: new SchemaValidator(),
        maxSteps: 1,
      })) {
        if (event.type === "turn_end" && event.answer.length !== ANSWER.length)
          throw new Error("engine read a different answer");
      }
    });
    return { floor, engine };
  } finally {
    await server.close();
  }
}

async function toolCalls(): Promise<{ floor: number; engine: number }> {
  const launch = fixtureLaunch(randomUUID());
  const client = await sdkPath(launch);
  const manager = new McpManager([serverConfig("fixture", fixtureLaunch(randomUUID()))], {
    parentEnv: process.env,
  });
  await manager.start();
  assertModern(manager);
  try {
    const floor = await timeIt(3, async () => {
      for (let call = 0; call < TOOL_CALLS; call += 1) await client.call("echo", { text: "x" });
    });
    const engine = await timeIt(3, async () => {
      for (let call = 0; call < TOOL_CALLS; call += 1)
        await manager.callTool("fixture", "echo", { text: "x" });
    });
    return { floor: floor / TOOL_CALLS, engine: engine / TOOL_CALLS };
  } finally {
    await client.close();
    await manager.close();
  }
}

function report(name: string, unit: string, { floor, engine }: { floor: number; engine: number }): void {
  console.log(
    `${name.padEnd(34)} floor ${floor.toFixed(3).padStart(8)} ${unit}   mcpterm ${engine.toFixed(3).padStart(8)} ${unit}   ratio ${(engine / floor).toFixed(2)}`,
  );
}

report("model step (18 KB streamed answer)", "ms", await modelStep());
const fixtures = await compileFixtures();
try {
  report("tool call (stdio round trip)", "ms", await toolCalls());
} finally {
  await rm(fixtures, { recursive: true, force: true });
}
