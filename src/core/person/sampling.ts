import type {
  CreateMessageResult,
  SamplingMessage,
  SamplingMessageContentBlock,
} from "@modelcontextprotocol/sdk/types.js";
import type { ChatMessage, ChatModel } from "../llm/types.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import { base64Bytes, formatBytes } from "../text/index.js";
import type { SamplingParams } from "./server-request-handlers.js";

/** A server's sampling request as the person sees it before anything reaches the model. */
export interface SamplingQuestion {
  server: string;
  /** The conversation the server wants answered, as text (non-text content described), sanitized and redacted. */
  messages: Array<{ role: "user" | "assistant"; text: string }>;
  systemPrompt: string | undefined;
  /** The models the server would prefer, by name; mcpterm answers with the configured one. */
  modelHints: string[];
  maxTokens: number;
  temperature: number | undefined;
  /** The model that will answer. */
  model: string;
}

/** The person's answer: send it (optionally with the last user message rewritten), or not. */
export type SamplingAnswer = { approved: true; editedText?: string } | { approved: false; reason: string };

/** Longest answer mcpterm lets a server ask for, whatever maxTokens says. */
export const MAX_SAMPLING_TOKENS = 8192;

/** The request in the person's terms; `clean` removes secrets (and is applied to every text shown). */
export function samplingQuestion(
  server: string,
  params: SamplingParams,
  model: string,
  clean: (text: string) => string,
): SamplingQuestion {
  const show = (text: string): string => sanitizeForTerminal(clean(text));
  return {
    server,
    messages: params.messages.map((message) => ({ role: message.role, text: show(messageText(message)) })),
    systemPrompt: params.systemPrompt === undefined ? undefined : show(params.systemPrompt),
    modelHints: samplingHints(params).map(show),
    maxTokens: Math.min(params.maxTokens, MAX_SAMPLING_TOKENS),
    temperature: params.temperature,
    model,
  };
}

/** At most this many model hints, each at most this long, are looked at: a server's hints are only hints. */
const MAX_HINTS = 10;
const MAX_HINT_CHARS = 100;

/** The model names a request hints at, bounded. */
export function samplingHints(params: SamplingParams): string[] {
  return (params.modelPreferences?.hints ?? [])
    .slice(0, MAX_HINTS)
    .map((hint) => hint.name)
    .filter((name): name is string => typeof name === "string")
    .map((name) => name.slice(0, MAX_HINT_CHARS));
}

/**
 * Answers an approved request with `model`: exactly the messages the person was shown and
 * approved (the last user message as they edited it; hidden text the panel could not show is not
 * sent either), without tools, at most `question.maxTokens` long.
 */
export async function answerSampling(
  model: ChatModel,
  question: SamplingQuestion,
  answer: { editedText?: string },
  signal: AbortSignal,
): Promise<CreateMessageResult> {
  const messages: ChatMessage[] = [];
  if (question.systemPrompt) messages.push({ role: "system", content: question.systemPrompt });
  const lastUser = question.messages.map((message) => message.role).lastIndexOf("user");
  question.messages.forEach((message, index) => {
    const text = index === lastUser && answer.editedText !== undefined ? answer.editedText : message.text;
    messages.push(
      message.role === "user" ? { role: "user", content: text } : { role: "assistant", content: text },
    );
  });
  let text = "";
  let stopReason: CreateMessageResult["stopReason"] = "endTurn";
  for await (const event of model.stream({
    messages,
    tools: [],
    signal,
    maxTokens: question.maxTokens,
    ...(question.temperature === undefined ? {} : { temperature: question.temperature }),
  })) {
    if (event.type !== "done") continue;
    text = event.text;
    if (event.finishReason === "length") stopReason = "maxTokens";
  }
  return { role: "assistant", content: { type: "text", text }, model: model.model, stopReason };
}

/** A sampling message's content as text: text blocks as they are, images and audio described. */
export function messageText(message: SamplingMessage): string {
  const blocks: SamplingMessageContentBlock[] = Array.isArray(message.content)
    ? message.content
    : [message.content];
  return blocks.map(blockText).join("\n");
}

function blockText(block: SamplingMessageContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}]`;
    case "tool_use":
    case "tool_result":
      // mcpterm does not declare sampling with tools; a server that sends them anyway gets them named.
      return `[${block.type}]`;
  }
}
