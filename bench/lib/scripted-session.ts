import type { RecordedRequest, ScriptedReply } from "../../test/support/scripted-model-server.js";
import { idle, type PaneRun } from "./tui.js";

/** One SSE chunk per token: a token is taken as 4 characters of English, as OpenAI's own rule of thumb. */
export const CHARS_PER_TOKEN = 4;

const WORDS = (
  "the model reads each tool result as data and answers in plain words while the terminal keeps " +
  "up with every chunk it streams so the person sees the reply grow line by line without flicker"
).split(" ");

/**
 * A long answer as a model writes one: paragraphs of about 400 characters with a little inline
 * markdown, exactly `tokens * 4` characters, ending in a line of its own that says it is over.
 */
export function longAnswer(tokens: number, id: string): { text: string; end: string; paragraphs: number } {
  const end = `End of answer ${id}.`;
  const length = tokens * CHARS_PER_TOKEN - end.length - 2;
  const paragraphs: string[] = [];
  let size = 0;
  for (let index = 0; size < length; index += 1) {
    const words = Array.from({ length: 64 }, (_, word) => WORDS[(index * 7 + word) % WORDS.length] ?? "");
    words[5] = `**${words[5] ?? ""}**`;
    words[20] = `\`${words[20] ?? ""}\``;
    const paragraph = `${words.join(" ")}.`;
    paragraphs.push(paragraph);
    size += paragraph.length + 2;
  }
  const body = paragraphs.join("\n\n").slice(0, length);
  return { text: `${body}\n\n${end}`, end, paragraphs: body.split("\n\n").length + 1 };
}

const pad = (turn: number): string => String(turn).padStart(4, "0");
/** What the person types for turn n, and the model's answer; zero-padded so no tag contains another. */
export const turnInput = (turn: number): string => `turn ${pad(turn)}`;
export const turnAnswer = (turn: number): string => `answer ${pad(turn)} done.`;

/**
 * The scripted model's side of a benchmark session: `turn n` gets a one-line answer; a message
 * naming one of `answers` gets that answer, streamed 4 characters (one token) a chunk.
 */
export function benchReplies(
  answers: ReadonlyMap<string, string>,
): (request: RecordedRequest) => ScriptedReply {
  return (request) => {
    const messages =
      (request.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
    const last = messages.at(-1);
    const content = typeof last?.content === "string" ? last.content : "";
    const long = answers.get(content);
    if (long !== undefined) return { text: long, chunkSize: CHARS_PER_TOKEN };
    const turn = /^turn (\d+)/.exec(content)?.[1];
    return { text: turn === undefined ? "ok" : turnAnswer(Number(turn)) };
  };
}

/** Types turns `from` .. `from + count - 1`, each waiting for its answer and the idle prompt. */
export async function typeTurns(run: PaneRun, from: number, count: number): Promise<void> {
  for (let turn = from; turn < from + count; turn += 1) {
    await run.submit(turnInput(turn));
    const answer = turnAnswer(turn);
    await run.waitFor((screen) => screen.includes(answer) && idle(screen), `the answer to turn ${turn}`);
  }
}
