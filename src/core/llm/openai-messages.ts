/** Converts between mcpterm's small message types and the `openai` package's request shapes. */
import type {
  ChatCompletionChunk,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { ChatMessage, FinishReason, ToolSpec, Usage } from "./types.js";

export function toOpenAiMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case "system":
      case "user":
        return { role: message.role, content: message.content };
      case "assistant": {
        const calls = message.toolCalls ?? [];
        // Some servers reject an empty `tool_calls` array, so it is left out rather than sent empty.
        if (calls.length === 0) return { role: "assistant", content: message.content };
        return {
          role: "assistant",
          content: message.content,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: call.arguments },
          })),
        };
      }
      case "tool":
        return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    }
  });
}

export function toOpenAiTools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

export function toFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case "stop":
    case "tool_calls":
    case "length":
    case "content_filter":
      return reason;
    case null:
    case undefined:
    default:
      return "unknown";
  }
}

export function toUsage(usage: ChatCompletionChunk["usage"]): Usage | undefined {
  if (!usage) return undefined;
  const promptTokens = usage.prompt_tokens;
  const completionTokens = usage.completion_tokens;
  // Some OpenAI-compatible servers omit the total; it is derivable, so derive it.
  const totalTokens = Number.isFinite(usage.total_tokens)
    ? usage.total_tokens
    : promptTokens + completionTokens;
  // OpenAI and vLLM report the cached part of the prompt here; llama.cpp and others do not.
  const cached = usage.prompt_tokens_details?.cached_tokens;
  return {
    promptTokens,
    completionTokens,
    totalTokens,
    ...(typeof cached === "number" && cached > 0 ? { cachedTokens: cached } : {}),
  };
}
