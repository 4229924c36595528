import { afterEach, expect } from "vitest";
import { LlmError } from "../../src/core/errors.js";
import { createOpenAiChatModel, type OpenAiChatModelOptions } from "../../src/core/llm/openai-chat-model.js";
import type { ChatModel, ModelRequest, ModelSettings, ModelStreamEvent } from "../../src/core/llm/types.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../support/scripted-model-server.js";

/** A sleep that records what it was asked to wait and returns at once, so no test waits for real. */
export function fakeSleep(): { delays: number[]; sleep: (ms: number) => Promise<void> } {
  const delays: number[] = [];
  return {
    delays,
    sleep: (ms) => {
      delays.push(ms);
      return Promise.resolve();
    },
  };
}

export const ask = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [{ role: "user", content: "hi" }],
  tools: [],
  ...extra,
});

export async function collect(model: ChatModel, request: ModelRequest = ask()): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of model.stream(request)) events.push(event);
  return events;
}

/** Runs the stream to its error, keeping the events before it in `events`. */
export async function failure(
  model: ChatModel,
  request: ModelRequest = ask(),
  events: ModelStreamEvent[] = [],
): Promise<LlmError> {
  try {
    for await (const event of model.stream(request)) events.push(event);
  } catch (error) {
    expect(error).toBeInstanceOf(LlmError);
    return error as LlmError;
  }
  throw new Error("expected the stream to fail");
}

export const done = (events: ModelStreamEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error(`last event is ${last?.type ?? "missing"}`);
  return last;
};

export const modelFor = (
  s: ScriptedModelServer,
  options: OpenAiChatModelOptions = {},
  settings: Partial<ModelSettings> = {},
) =>
  createOpenAiChatModel(
    { model: "test-model", baseUrl: s.baseUrl, apiKey: "sk-secret-123", ...settings },
    options,
  );

/** Starts one scripted model server per test, closed after it: call at a test file's top level. */
export function scriptedServerPerTest(): {
  /** A server that answers with `replies` in order. */
  start: (...replies: ScriptedReply[]) => Promise<ScriptedModelServer>;
  /** A server that answers every request through `reply`. */
  startAnswering: (reply: (request: RecordedRequest) => ScriptedReply) => Promise<ScriptedModelServer>;
} {
  let server: ScriptedModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const started = async (script: Parameters<typeof startScriptedModelServer>[0]) => {
    server = await startScriptedModelServer(script);
    return server;
  };
  return { start: (...replies) => started(replies), startAnswering: (reply) => started(reply) };
}
