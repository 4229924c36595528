import type { SignInPerson } from "../oauth/server-auth.js";
import type { ApprovalAnswer, ApprovalRequest, FetchQuestion } from "./approval-request.js";
import type { ElicitationAnswer, ElicitationQuestion } from "./elicitation.js";
import type { SamplingAnswer, SamplingQuestion } from "./sampling.js";
import type { TrustQuestion } from "./trust-question.js";

/**
 * The person at the keyboard, as the core sees them: every question mcpterm puts to a person
 * goes through here — approve a call or a page fetch, trust a project's config, sign in, let a
 * server use the model (sampling), fill in a server's form or open its page (elicitation).
 * Policy decides first; only what it says to ask reaches a Person. Each question is plain data
 * and each answer a value, so the TUI, the terminal and tests answer the same way. Every method
 * must answer no (not throw) when `signal` aborts.
 */
export interface Person {
  /**
   * Undefined when someone is there to answer; otherwise why nobody can be asked, and every
   * question is then answered no. The few flows that do something else with nobody there
   * (sampling under --allow-sampling, a config refused with the flag that trusts it) read it.
   */
  readonly absent: string | undefined;
  approveCall(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  approveFetch(question: FetchQuestion, signal: AbortSignal): Promise<ApprovalAnswer>;
  trustConfig(question: TrustQuestion, signal: AbortSignal): Promise<boolean>;
  sampling(question: SamplingQuestion, signal: AbortSignal): Promise<SamplingAnswer>;
  elicitation(question: ElicitationQuestion, signal: AbortSignal): Promise<ElicitationAnswer>;
  /** Signs in to a server that needs OAuth; undefined: a needed sign-in is reported, not started. */
  readonly signIn: SignInPerson | undefined;
}

/** Nobody to ask, for `reason`: every question is answered no, with that reason where one is given. */
export function nobody(reason: string): Person {
  const no = { approved: false, reason } as const;
  return {
    absent: reason,
    approveCall: () => Promise.resolve(no),
    approveFetch: () => Promise.resolve(no),
    trustConfig: () => Promise.resolve(false),
    sampling: () => Promise.resolve(no),
    elicitation: () => Promise.resolve({ action: "decline" }),
    signIn: undefined,
  };
}

/** Nobody at all: scripts, one-shot mode and the developer commands, until a front end says otherwise. */
export const NOBODY: Person = nobody("nobody is there to answer it");
