import type { Root } from "../deprecated-mcp.js";
import type {
  ElicitationParams,
  SamplingParams,
  ServerRequestHandlers,
} from "../person/server-request-handlers.js";
import { invalidRequest } from "../person/server-request-handlers.js";
import type { QuestionHold } from "./question-hold.js";

/** One question a 2026 task asks in its tasks/get answer (`inputRequests`), by its key. */
export interface TaskInputRequest {
  method: string;
  params?: unknown;
}

/** Who answers a task's questions: the same person-facing flows as a server's own requests. */
export interface TaskQuestionAnswerer {
  server: string;
  requests: ServerRequestHandlers;
  questions: QuestionHold;
  /** The roots offered, or undefined where roots are not offered to this server. */
  roots: (() => Root[]) | undefined;
}

/**
 * Answers one question a task asked (elicitation, sampling, roots) through the panels the person
 * already knows, or declines it where nobody can be asked (one-shot mode). The answer is what the
 * spec's matching result holds, ready to go back in `tasks/update`'s `inputResponses`.
 */
export async function answerTaskQuestion(
  answerer: TaskQuestionAnswerer,
  request: TaskInputRequest,
  signal: AbortSignal,
): Promise<unknown> {
  const { server, requests, questions, roots } = answerer;
  switch (request.method) {
    case "elicitation/create":
      return questions.during(() => requests.elicit(server, request.params as ElicitationParams, signal));
    case "sampling/createMessage":
      return questions.during(() => requests.createMessage(server, request.params as SamplingParams, signal));
    case "roots/list":
      if (roots) return { roots: roots() };
      throw invalidRequest("this server is not offered roots");
    default:
      throw invalidRequest(`mcpterm cannot answer a task's ${request.method.slice(0, 100)} request`);
  }
}

/** The task's questions not answered yet, by key: a task asks again in every poll until it has them. */
export function newQuestions(
  inputRequests: unknown,
  answered: ReadonlySet<string>,
): Array<[string, TaskInputRequest]> {
  if (typeof inputRequests !== "object" || inputRequests === null) return [];
  return Object.entries(inputRequests as Record<string, unknown>).flatMap(([key, value]) => {
    if (answered.has(key)) return [];
    const method = (value as { method?: unknown } | null)?.method;
    if (typeof method !== "string") return [];
    return [[key, { method, params: (value as { params?: unknown }).params }]];
  });
}
