import { nearestKey } from "../config/nearest-key.js";
import { isTier, TIERS } from "../policy/tiers.js";
import {
  FAILURE_CLASSES,
  isFailureClass,
  isPlainObject,
  type CallKind,
  type RecordedCall,
  type RecordedOutcome,
} from "./recorded-calls.js";

/**
 * A calls file: one recorded call a line, as `mcpterm trace --calls` prints them, for a person to
 * edit (change an argument, drop a call, write the result a call should have) and hand back to
 * `mcpterm replay`:
 *
 *   {"kind":"tool","server":"fixture","tool":"echo","arguments":{"text":"hi"},"tier":"read_only","durationMs":3,"result":{...}}
 *   {"kind":"resource","server":"docs","uri":"file:///a.md","result":{"contents":[...]}}
 *   {"kind":"prompt","server":"docs","prompt":"review","arguments":{"file":"a.md"},"result":{...}}
 *
 * `error` ({ failure, code, message }) stands instead of `result` for a call that failed, and
 * `resultPreview` with `resultChars` for a result the trace kept only the start of.
 */
export function callLine(call: RecordedCall): string {
  const target = call.kind === "tool" ? "tool" : call.kind === "resource" ? "uri" : "prompt";
  return JSON.stringify({
    kind: call.kind,
    server: call.server,
    [target]: call.target,
    ...(call.kind === "resource" ? {} : { arguments: call.arguments }),
    ...(call.tier === undefined ? {} : { tier: call.tier }),
    ...(call.personApproved ? { personApproved: true } : {}),
    ...(call.durationMs === undefined ? {} : { durationMs: call.durationMs }),
    ...outcomeFields(call.recorded),
  });
}

function outcomeFields(outcome: RecordedOutcome): Record<string, unknown> {
  switch (outcome.kind) {
    case "result":
      return { result: outcome.value };
    case "preview":
      return { resultPreview: outcome.preview, resultChars: outcome.chars };
    case "error":
      return {
        error: {
          ...(outcome.failure === undefined ? {} : { failure: outcome.failure }),
          ...(outcome.code === undefined ? {} : { code: outcome.code }),
          message: outcome.message,
        },
      };
  }
}

const TARGET_KEY: Record<CallKind, "tool" | "uri" | "prompt"> = {
  tool: "tool",
  resource: "uri",
  prompt: "prompt",
};

/** Every key a line may have besides its kind's target key (`tool`, `uri` or `prompt`). */
const LINE_KEYS = [
  "kind",
  "server",
  "arguments",
  "tier",
  "personApproved",
  "durationMs",
  "result",
  "error",
  "resultPreview",
  "resultChars",
];
const ERROR_KEYS = ["failure", "code", "message"];

/**
 * A key the file format does not have, named with the one it most likely misspells: read
 * leniently, `"argments": {…}` would replay the call with no arguments and call it a match.
 */
function unknownKey(
  value: Record<string, unknown>,
  known: readonly string[],
  where: string,
): string | undefined {
  const key = Object.keys(value).find((name) => !known.includes(name));
  if (key === undefined) return undefined;
  const meant = nearestKey(key, known);
  return `${where} has an unknown key ${JSON.stringify(key)}${meant ? `; did you mean "${meant}"?` : ""} (the keys are ${known.join(", ")}).`;
}

/** One line of a calls file read back, or the sentence that says what is wrong with it. */
export function callFromLine(value: Record<string, unknown>, line: number): RecordedCall | string {
  const at = `line ${line}`;
  const { kind } = value;
  if (kind !== "tool" && kind !== "resource" && kind !== "prompt")
    return `${at}: "kind" must be "tool", "resource" or "prompt", got ${shown(kind)}.`;
  const unknown = unknownKey(value, [...LINE_KEYS.slice(0, 2), TARGET_KEY[kind], ...LINE_KEYS.slice(2)], at);
  if (unknown) return unknown;
  if (typeof value.server !== "string" || value.server === "")
    return `${at}: "server" must be the name of a server, got ${shown(value.server)}.`;
  const targetKey = TARGET_KEY[kind];
  const target = value[targetKey];
  if (typeof target !== "string" || target === "")
    return `${at}: a ${kind} call needs "${targetKey}" as a non-empty string, got ${shown(target)}.`;
  const args = value.arguments ?? {};
  if (!isPlainObject(args)) return `${at}: "arguments" must be a JSON object, got ${shown(args)}.`;
  if (kind === "prompt") {
    const notText = Object.entries(args).find(([, item]) => typeof item !== "string");
    if (notText) return `${at}: prompt argument "${notText[0]}" must be a string (MCP prompts take strings).`;
  }
  if (value.tier !== undefined && !isTier(value.tier))
    return `${at}: "tier" must be one of ${TIERS.join(", ")}, got ${shown(value.tier)}.`;
  if (value.personApproved !== undefined && typeof value.personApproved !== "boolean")
    return `${at}: "personApproved" must be true or false, got ${shown(value.personApproved)}.`;
  const { durationMs } = value;
  if (durationMs !== undefined && (typeof durationMs !== "number" || durationMs < 0))
    return `${at}: "durationMs" must be a number of milliseconds, got ${shown(durationMs)}.`;
  const recorded = outcomeOf(value, at);
  if (typeof recorded === "string") return recorded;
  return {
    kind,
    server: value.server,
    target,
    arguments: args,
    tier: isTier(value.tier) ? value.tier : undefined,
    ...(value.personApproved === true ? { personApproved: true as const } : {}),
    durationMs: typeof durationMs === "number" ? durationMs : undefined,
    recorded,
    line,
  };
}

function outcomeOf(value: Record<string, unknown>, at: string): RecordedOutcome | string {
  const given = ["result", "error", "resultPreview"].filter((key) => value[key] !== undefined);
  if (given.length !== 1)
    return given.length === 0
      ? `${at} has no "result" (nor "error"): give what the call should answer, as mcpterm trace --calls writes it.`
      : `${at} has ${given.map((key) => `"${key}"`).join(" and ")}; give one.`;
  if (value.result !== undefined) {
    if (!isPlainObject(value.result))
      return `${at}: "result" must be a JSON object, got ${shown(value.result)}.`;
    return { kind: "result", value: value.result };
  }
  if (value.resultPreview !== undefined) {
    if (typeof value.resultPreview !== "string" || typeof value.resultChars !== "number")
      return `${at}: "resultPreview" must be a string, with "resultChars" the whole result's length.`;
    return { kind: "preview", preview: value.resultPreview, chars: value.resultChars };
  }
  const error = value.error;
  if (!isPlainObject(error)) return `${at}: "error" must be a JSON object, got ${shown(error)}.`;
  const unknown = unknownKey(error, ERROR_KEYS, `${at}: "error"`);
  if (unknown) return unknown;
  if (error.failure !== undefined && !isFailureClass(error.failure))
    return `${at}: "error.failure" must be one of ${FAILURE_CLASSES.join(", ")}, got ${shown(error.failure)}.`;
  if (error.code !== undefined && typeof error.code !== "number")
    return `${at}: "error.code" must be a number (a JSON-RPC error code), got ${shown(error.code)}.`;
  return {
    kind: "error",
    failure: isFailureClass(error.failure) ? error.failure : undefined,
    code: typeof error.code === "number" ? error.code : undefined,
    message: typeof error.message === "string" ? error.message : "",
  };
}

/** A value named in a message: short, and as JSON so a string's quotes and escapes show. */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
