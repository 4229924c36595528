import type { ArgumentSecret } from "../policy/argument-secrets.js";
import { redactShared } from "../policy/redact-deep.js";
import { REDACTED } from "../policy/secret-patterns.js";
import type { ProposedToolCall } from "./events.js";

/**
 * The call as its events show it (the stream, the trace, the session): when the argument scan
 * found a secret in it (a known key's part or encoding, a value under a secret's name), every
 * string in its arguments is withheld. The rules that redact an event read each string alone
 * and find only what they know whole; the scan reads the arguments together. Where it found
 * the secret is in the decision's `argumentSecrets`, never the value. The call itself, and the
 * person asked about it, keep the arguments as the model wrote them.
 */
export function argumentsShown(call: ProposedToolCall, secrets: readonly ArgumentSecret[]): ProposedToolCall {
  if (!withholdsArguments(call, secrets) || call.arguments === undefined) return call;
  const args = withheld(call.arguments);
  return { ...call, arguments: args, rawArguments: JSON.stringify(args) };
}

/** Whether argumentsShown withholds the call's arguments. */
export function withholdsArguments(call: ProposedToolCall, secrets: readonly ArgumentSecret[]): boolean {
  return secrets.length > 0 && call.arguments !== undefined;
}

/**
 * The arguments as the model wrote them (JSON), every string withheld: what the conversation
 * keeps of a call the scan found a secret in, so neither the saved session nor the next request
 * to the model carries it again.
 */
export function rawArgumentsWithheld(raw: string): string {
  try {
    return JSON.stringify(withheld(JSON.parse(raw) as unknown));
  } catch {
    return JSON.stringify(REDACTED);
  }
}

function withheld<T>(value: T): T {
  return redactShared(value, () => REDACTED);
}
