/**
 * Tokens counted before a request is sent, when no tokenizer for the model is at hand. Every
 * count errs high: English runs about four characters a token, code and JSON nearer three, and
 * CJK or other non-ASCII text about one a character, so ASCII counts one token per three
 * characters and anything else one per character. The API's usage then calibrates it (ContextBudget).
 */
import { toOpenAiMessages, toOpenAiTools } from "../llm/openai-messages.js";
import type { ChatMessage, ToolSpec } from "../llm/types.js";

export function estimateTextTokens(text: string): number {
  const { ascii, other } = characterCounts(text);
  return Math.ceil(ascii / 3 + other);
}

/**
 * The live count of an answer as it streams, shown until the model reports the step's usage:
 * the typical rate (four ASCII characters a token) rather than the high one a budget needs, so
 * the counter does not jump down when the real figure arrives.
 */
export function estimateStreamedTokens(text: string): number {
  const { ascii, other } = characterCounts(text);
  return ascii / 4 + other;
}

function characterCounts(text: string): { ascii: number; other: number } {
  let ascii = 0;
  let other = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) ascii++;
    // The second half of a surrogate pair: its character was counted with the first.
    else if (code < 0xdc00 || code > 0xdfff) other++;
  }
  return { ascii, other };
}

/** A message as it goes over the wire (role, keys and quoting included), so the chat template's overhead is counted too. */
export function estimateMessageTokens(message: ChatMessage): number {
  return estimateTextTokens(JSON.stringify(toOpenAiMessages([message])[0]));
}

export function estimateMessagesTokens(messages: readonly ChatMessage[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

/** The tool definitions as sent: names, descriptions and input schemas. */
export function estimateToolTokens(tools: readonly ToolSpec[]): number {
  return tools.length === 0 ? 0 : estimateTextTokens(JSON.stringify(toOpenAiTools(tools)));
}

/** About how many characters of text make `tokens` tokens, erring low (three per token). */
export function charsForTokens(tokens: number): number {
  return Math.max(0, Math.floor(tokens * 3));
}

/** How many of `text`'s first characters fit in `tokens` as estimateTextTokens counts, at most `maxChars`. */
export function charsWithinTokens(text: string, tokens: number, maxChars: number): number {
  let cost = 0;
  const end = Math.min(text.length, maxChars);
  for (let index = 0; index < end; index++) {
    const code = text.charCodeAt(index);
    cost += code < 0x80 ? 1 / 3 : code >= 0xdc00 && code <= 0xdfff ? 0 : 1;
    if (cost > tokens) return index;
  }
  return end;
}
