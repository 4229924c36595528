import type { ChatMessage } from "../llm/types.js";
import type { QueryPart } from "./weighted-query.js";

/** The person's latest message counts whole; each earlier one half as much as the one after it. */
const EARLIER_MESSAGE_DECAY = 0.5;
/** Earlier messages read, besides the latest: older ones rarely say what this step needs. */
const EARLIER_MESSAGES = 3;
/** What the model wrote in this turn so far ("I'll check the calendar") counts this much. */
const MODEL_TEXT_WEIGHT = 0.5;
/** The most of one message read: a pasted document should not decide the tools alone. */
const MAX_PART_CHARS = 4_000;

/**
 * What tools are ranked against: the person's words in this turn (`input`, without the passages
 * and attachments mcpterm adds to the message), what the model has said in this turn, and the
 * person's earlier messages, fading with age. Tool results are left out: they are a server's
 * words, not what the person asked for.
 */
export function conversationQuery(input: string, conversation: readonly ChatMessage[]): QueryPart[] {
  const parts: QueryPart[] = [{ text: clip(input), weight: 1 }];
  let current = true;
  let weight = 1;
  let earlier = 0;
  for (let index = conversation.length - 1; index >= 0 && earlier < EARLIER_MESSAGES; index--) {
    const message = conversation[index];
    if (message?.role === "user") {
      // The turn's own message is `input` already; the ones before it fade.
      if (current) current = false;
      else {
        weight *= EARLIER_MESSAGE_DECAY;
        earlier += 1;
        parts.push({ text: clip(message.content), weight });
      }
    } else if (message?.role === "assistant" && current && message.content) {
      parts.push({ text: clip(message.content), weight: MODEL_TEXT_WEIGHT });
    }
  }
  return parts;
}

function clip(text: string): string {
  return text.slice(0, MAX_PART_CHARS);
}
