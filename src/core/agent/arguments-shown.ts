import type { ToolCallRequest } from "../llm/types.js";
import type { ArgumentSecret } from "../policy/argument-secrets.js";
import { defineEntry } from "../policy/redact-deep.js";
import { REDACTED } from "../policy/secret-patterns.js";
import type { ProposedToolCall } from "./events.js";

/** A proposed call as its events show it, and what the argument scan found in it. */
export interface ScannedCall {
  call: ProposedToolCall;
  secrets: ArgumentSecret[];
}

/**
 * Scans a proposed call's arguments (whatever becomes of the call: run, denied, not run at all,
 * or refused for arguments its schema does not take) and gives the call as its events show it
 * (the stream, the trace, the session): when the scan found a secret (a known key's part or
 * encoding, a value under a secret's name), every string in its arguments is withheld, and every
 * key too where the secret may be in one. The rules that redact an event read each string alone
 * and find only what they know whole; the scan reads the arguments together. Where it found the
 * secret is in the decision's `argumentSecrets`, never the value. The call itself keeps the
 * arguments as the model wrote them.
 */
export async function scannedCall(
  call: ProposedToolCall,
  scan: ((args: Record<string, unknown>) => Promise<ArgumentSecret[]>) | undefined,
): Promise<ScannedCall> {
  if (scan === undefined) return { call, secrets: [] };
  // Arguments that could not be read (not JSON, nested too deep) are scanned as the text they are.
  const secrets = await scan(call.arguments ?? { arguments: call.rawArguments });
  if (secrets.length === 0) return { call, secrets };
  // What is wrong with them may quote them (a JSON error's snippet, a schema error's path); an
  // unknown tool's list of names, or a server that is down, quotes nothing of them.
  const problem = call.problem?.startsWith(ABOUT_THE_ARGUMENTS) === true ? PROBLEM_WITHHELD : call.problem;
  if (call.arguments === undefined)
    return { call: { ...call, rawArguments: JSON.stringify(REDACTED), problem }, secrets };
  // A secret in a key is found by its path's "(key)", or across the arguments as a whole.
  const keys = secrets.some((secret) => secret.path === WHOLE || secret.path.endsWith(" (key)"));
  const args = withheld(call.arguments, keys) as Record<string, unknown>;
  return { call: { ...call, arguments: args, rawArguments: JSON.stringify(args), problem }, secrets };
}

/** What a withheld call's problem says instead of its own words, which may quote the arguments. */
export const PROBLEM_WITHHELD =
  "The arguments could not be used as they are (what is wrong with them is withheld: they hold a secret). Send arguments that match the tool's schema and hold no secret.";

/** How resolveToolCall's problems with the arguments themselves begin (not JSON, nested too deep, the schema's). */
const ABOUT_THE_ARGUMENTS = "The arguments ";

/** Where the scan says it found a secret only across the arguments read together. */
const WHOLE = "(the arguments)";

/**
 * What the conversation keeps of a call whose proposal withheld its arguments: the withheld
 * form, so neither the saved session nor the next request to the model carries the secret again.
 * `asked[index]` is the call the proposal is of: proposals come in the order of the calls, and
 * two calls may share an id.
 */
export function keepShown(asked: ToolCallRequest[], index: number, shown: ProposedToolCall): void {
  const call = asked[index];
  if (call?.id === shown.id && call.arguments !== shown.rawArguments) call.arguments = shown.rawArguments;
}

/**
 * Every string and number withheld (a key may be spelled as character codes), and with `keys`
 * every key (numbered, so none takes another's place).
 */
function withheld(value: unknown, keys: boolean): unknown {
  if (typeof value === "string" || typeof value === "number") return REDACTED;
  if (Array.isArray(value)) return value.map((item) => withheld(item, keys));
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  Object.keys(value).forEach((key, index) => {
    defineEntry(
      copy,
      keys ? `${REDACTED} ${index + 1}` : key,
      withheld((value as Record<string, unknown>)[key], keys),
    );
  });
  return copy;
}
