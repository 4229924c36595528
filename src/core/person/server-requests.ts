import type { CreateMessageResult, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../errors.js";
import type { ChatModel } from "../llm/types.js";
import {
  invalidRequest,
  samplingRefused,
  type ElicitationParams,
  type SamplingParams,
  type ServerRequestHandlers,
} from "./server-request-handlers.js";
import { elicitationQuestion, formResult } from "./elicitation.js";
import { NoticeThrottle } from "./notice-throttle.js";
import type { Person } from "./person.js";
import { PerServerRateLimit } from "./rate-limit.js";
import { answerSampling, samplingHints, samplingQuestion, type SamplingAnswer } from "./sampling.js";

/** What the trace keeps of one server request: who asked, what, and what became of it. */
export type ServerRequestRecord =
  | {
      type: "sampling";
      server: string;
      outcome: "answered" | "refused" | "failed";
      by: "user" | "flag" | "default" | "limit";
      reason: string;
      messages: number;
      maxTokens: number;
      modelHints: string[];
      model: string | undefined;
      answerChars: number | undefined;
      edited: boolean;
    }
  | {
      type: "elicitation";
      server: string;
      mode: "form" | "url";
      action: ElicitResult["action"];
      by: "user" | "default" | "limit";
      reason: string;
      /** Field names answered (never their values: they may be what the person typed in confidence). */
      fields: string[];
      domain: string | undefined;
    };

export interface ServerRequestOptions {
  /** Who answers questions now; with nobody there, elicitation is declined and sampling needs `allowSampling`. */
  person: () => Person;
  /** --allow-sampling: answer sampling requests with the model without asking (one-shot mode). */
  allowSampling: boolean;
  /** The model that answers sampling; throws (ConfigError) when none can be reached. */
  model: () => ChatModel;
  /** Removes secrets, both from what is shown and from what is sent back to the server. */
  redact: (text: string) => string;
  record: (record: ServerRequestRecord) => void;
  /** Opens a web page in the person's browser (never through a shell). */
  openUrl: (url: string) => Promise<void>;
  /** Tells the person something about a request of `server` as it happens (declined, failed). */
  notify: (text: string, server: string) => void;
  /** Per server: at most this many sampling or elicitation requests a minute. */
  perMinute?: number;
}

const DEFAULT_PER_MINUTE = 10;
/** Longest reason and field name a trace record keeps (a typed denial, a server's field name). */
const MAX_REASON = 300;
const MAX_FIELD_NAME = 100;

/**
 * The session's answers to servers' sampling and elicitation requests: each is shown to the
 * person, rate-limited per server, recorded in the trace, and declined where nobody can be asked.
 */
export function serverRequestHandlers(options: ServerRequestOptions): ServerRequestHandlers {
  const limit = options.perMinute ?? DEFAULT_PER_MINUTE;
  const samplingLimit = new PerServerRateLimit(limit, 60_000);
  // Past the rate limit, a flood is recorded and told once a minute, not once a request.
  const limitNotes = new NoticeThrottle(1, 60_000);
  const elicitationLimit = new PerServerRateLimit(limit, 60_000);
  return {
    createMessage: (server, params, signal) =>
      sample(options, { rate: samplingLimit, notes: limitNotes }, server, params, signal),
    elicit: (server, params, signal) =>
      elicit(options, { rate: elicitationLimit, notes: limitNotes }, server, params, signal),
  };
}

/** A kind of request's rate limit, and the notes that keep its refusals from flooding. */
interface Limits {
  rate: PerServerRateLimit;
  notes: NoticeThrottle;
}

async function sample(
  options: ServerRequestOptions,
  { rate: limit, notes: limitNotes }: Limits,
  server: string,
  params: SamplingParams,
  signal: AbortSignal,
): Promise<CreateMessageResult> {
  if (!Number.isInteger(params.maxTokens) || params.maxTokens < 1)
    throw invalidRequest(`maxTokens must be a whole number of at least 1, not ${String(params.maxTokens)}`);
  const base = {
    type: "sampling" as const,
    server,
    messages: params.messages.length,
    maxTokens: params.maxTokens,
    modelHints: samplingHints(params).map(options.redact),
    edited: false,
  };
  const refuse = (by: "user" | "default" | "limit", reason: string, model?: string): never => {
    const shown = reason.slice(0, MAX_REASON);
    // Past the rate limit, a flood is recorded once a window, not once a request.
    if (by !== "limit" || limitNotes.pass(`${server}\u0000sampling`, "") !== undefined) {
      options.record({ ...base, outcome: "refused", by, reason: shown, model, answerChars: undefined });
      options.notify(`Declined a sampling request from server "${server}": ${shown}.`, server);
    }
    throw samplingRefused(`sampling request declined: ${reason}`);
  };
  const slot = limit.take(server);
  if (!slot.ok) return refuse("limit", slot.reason);
  try {
    let model: ChatModel;
    try {
      model = options.model();
    } catch (error) {
      return refuse("default", `no model can answer it (${errorMessage(error)})`);
    }
    const question = samplingQuestion(server, params, model.model, options.redact);
    const person = options.person();
    let answer: SamplingAnswer;
    let by: "user" | "flag";
    if (person.absent === undefined) {
      answer = await person.sampling(question, signal);
      by = "user";
      if (signal.aborted)
        return refuse("default", "the server withdrew it before it was answered", model.model);
    } else if (options.allowSampling) {
      answer = { approved: true };
      by = "flag";
    } else {
      return refuse("default", `${person.absent}; pass --allow-sampling to answer such requests`);
    }
    if (!answer.approved) return refuse("user", answer.reason, model.model);
    const edited = "editedText" in answer && answer.editedText !== undefined;
    try {
      const result = await answerSampling(model, question, answer, signal);
      // What the model wrote goes back to the server: without the secrets it may have repeated.
      const text = result.content.type === "text" ? options.redact(result.content.text) : "";
      options.record({
        ...base,
        edited,
        outcome: "answered",
        by,
        reason: by === "flag" ? "allowed by --allow-sampling" : "approved by the user",
        model: model.model,
        answerChars: text.length,
      });
      return { ...result, content: { type: "text", text } };
    } catch (error) {
      const reason = options.redact(errorMessage(error));
      options.record({
        ...base,
        edited,
        outcome: "failed",
        by,
        reason,
        model: model.model,
        answerChars: undefined,
      });
      options.notify(`A sampling request from server "${server}" failed: ${reason}`, server);
      throw samplingRefused(`the model could not answer: ${reason}`);
    }
  } finally {
    slot.release();
  }
}

async function elicit(
  options: ServerRequestOptions,
  { rate: limit, notes: limitNotes }: Limits,
  server: string,
  params: ElicitationParams,
  signal: AbortSignal,
): Promise<ElicitResult> {
  const mode = params.mode === "url" ? "url" : "form";
  const finish = (
    result: ElicitResult,
    by: "user" | "default" | "limit",
    reason: string,
    domain?: string,
  ): ElicitResult => {
    // Past the rate limit, a flood is recorded once a window, not once a request.
    if (by === "limit" && limitNotes.pass(`${server}\u0000elicitation`, "") === undefined) return result;
    options.record({
      type: "elicitation",
      server,
      mode,
      action: result.action,
      by,
      reason: reason.slice(0, MAX_REASON),
      fields: Object.keys(result.content ?? {}).map((field) => field.slice(0, MAX_FIELD_NAME)),
      domain,
    });
    if (by !== "user")
      options.notify(`Declined a request for input from server "${server}": ${reason}.`, server);
    return result;
  };
  const slot = limit.take(server);
  if (!slot.ok) return finish({ action: "decline" }, "limit", slot.reason);
  try {
    const question = elicitationQuestion(server, params, options.redact);
    if ("problem" in question) return finish({ action: "decline" }, "default", question.problem);
    const person = options.person();
    if (person.absent !== undefined) return finish({ action: "decline" }, "default", person.absent);
    const answer = await person.elicitation(question, signal);
    if (signal.aborted)
      return finish({ action: "cancel" }, "default", "the server withdrew it before it was answered");
    if (question.mode === "url") {
      if (answer.action !== "accept")
        return finish({ action: answer.action }, "user", `the user chose ${answer.action}`, question.domain);
      try {
        await options.openUrl(question.url);
      } catch (error) {
        options.notify(`Could not open ${question.url}: ${errorMessage(error)}`, server);
        // The person said yes, but nothing opened: the server must not take it as done.
        return finish(
          { action: "cancel" },
          "user",
          `the page on ${question.domain} could not be opened`,
          question.domain,
        );
      }
      return finish(
        { action: "accept" },
        "user",
        `the user opened a page on ${question.domain}`,
        question.domain,
      );
    }
    const form = formResult(question.fields, answer);
    if (!form.ok)
      return finish({ action: "cancel" }, "default", `the answer did not fit the form: ${form.problem}`);
    return finish(form.result, "user", `the user chose ${form.result.action}`);
  } finally {
    slot.release();
  }
}
