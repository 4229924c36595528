import type { SamplingQuestion } from "../../core/person/sampling.js";

/**
 * A sampling request as lines: the system prompt, then each message by role, later lines of a
 * message indented under its first. The texts were sanitized by the core.
 */
export function samplingLines(question: SamplingQuestion): string[] {
  const lines: string[] = [];
  // A loop, not push(...lines): a message of 150,000 lines would overflow the call stack.
  const add = (head: string, text: string): void => {
    text.split("\n").forEach((line, index) => {
      lines.push(index === 0 ? `${head}: ${line}` : `  ${line}`);
    });
  };
  if (question.systemPrompt !== undefined) add("system", question.systemPrompt);
  for (const message of question.messages) add(message.role, message.text);
  return lines;
}

/** What the model is asked for, in one line: who answers, how long at most, at what temperature. */
export function samplingTerms(question: SamplingQuestion): string {
  return [
    `${question.model} answers`,
    `at most ${question.maxTokens} tokens`,
    ...(question.temperature === undefined ? [] : [`temperature ${question.temperature}`]),
  ].join(" · ");
}
