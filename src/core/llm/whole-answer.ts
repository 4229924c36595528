/**
 * A server that ignores `"stream": true` (some gateways, some small local servers) answers with
 * one `chat.completion` JSON body instead of events. It is read as the single chunk it would have
 * streamed, so its answer shows instead of an empty one.
 */
import type { ChatCompletionChunk } from "openai/resources/chat/completions";

/** An answer's body is at most a few hundred kilobytes; past this it is no answer. */
export const MAX_WHOLE_ANSWER_BYTES = 16 * 1024 * 1024;

interface WholeToolCall {
  id?: unknown;
  type?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

/** The chunk `body` (a parsed `chat.completion`) stands for, or undefined when it is none. */
export function chunkOfWholeAnswer(body: unknown): ChatCompletionChunk | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { choices, usage, id, model, created } = body as Record<string, unknown>;
  if (!Array.isArray(choices)) return undefined;
  const choice = choices[0] as { message?: unknown; finish_reason?: unknown } | undefined;
  const message = (choice?.message ?? {}) as { content?: unknown; tool_calls?: unknown };
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as WholeToolCall[]) : [];
  const delta: ChatCompletionChunk.Choice.Delta = {
    role: "assistant",
    ...(typeof message.content === "string" ? { content: message.content } : {}),
    ...(calls.length > 0
      ? {
          tool_calls: calls.map((call, index) => ({
            index,
            ...(typeof call.id === "string" ? { id: call.id } : {}),
            type: "function" as const,
            function: {
              ...(typeof call.function?.name === "string" ? { name: call.function.name } : {}),
              ...(typeof call.function?.arguments === "string" ? { arguments: call.function.arguments } : {}),
            },
          })),
        }
      : {}),
  };
  const finish = typeof choice?.finish_reason === "string" ? choice.finish_reason : null;
  return {
    id: typeof id === "string" ? id : "whole-answer",
    object: "chat.completion.chunk",
    created: typeof created === "number" ? created : 0,
    model: typeof model === "string" ? model : "",
    choices: choice
      ? [{ index: 0, delta, finish_reason: finish as ChatCompletionChunk.Choice["finish_reason"] }]
      : [],
    ...(typeof usage === "object" && usage !== null ? { usage: usage as ChatCompletionChunk["usage"] } : {}),
  };
}
