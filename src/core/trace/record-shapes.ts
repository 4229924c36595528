import type { TraceRecord } from "./trace-records.js";

/**
 * What each field of a trace record must be for `mcpterm trace`, `replay` and the OTLP export to
 * read it: a trace may come from another version, another tool or a hand's edit. A kind ending
 * in `?` may be missing (a field of the wrong kind is then dropped, as if missing); `strings`
 * is a list of strings, an empty one where it is missing or is not a list; a list in square
 * brackets holds entries of that shape or kind (other entries are dropped); an object is a
 * nested shape, and `optional(shape)` one that may be missing (or is dropped). Other fields are
 * kept as they are.
 */
type Kind = "string" | "number" | "boolean" | "array" | "object" | "number|null" | "string|null" | "json";
type FieldShape = Kind | `${Kind}?` | "strings" | Shape | [Shape | Kind] | Optional | Check;
interface Shape {
  readonly [field: string]: FieldShape;
}

class Optional {
  constructor(readonly shape: Shape) {}
}

function optional(shape: Shape): Optional {
  return new Optional(shape);
}

/** A required field that must pass `test`; `what` says what it must be. */
class Check {
  constructor(
    readonly test: (value: unknown) => boolean,
    readonly what: string,
  ) {}
}

/** One of `values`, and nothing else (a name a lookup reads, where `__proto__` would be found). */
function oneOf(...values: string[]): Check {
  return new Check(
    (value) => typeof value === "string" && values.includes(value),
    `one of ${values.join(", ")}`,
  );
}

/** What a compaction dropped, each kind with what describeCompaction reads of it. */
const COMPACTION_DROPS = new Check(
  (value) =>
    Array.isArray(value) &&
    value.every(
      (item: unknown) =>
        kindOf(item) === "object" &&
        ["tool_result", "tool_arguments", "message", "turns"].includes(
          String((item as { kind?: unknown }).kind),
        ) &&
        ((item as { kind: string }).kind !== "turns" ||
          (kindOf((item as { turns?: unknown }).turns) === "number" &&
            kindOf((item as { messages?: unknown }).messages) === "number")),
    ),
  "a list of what compaction dropped",
);

const SERVER_STATE: Shape = {
  name: "string",
  status: "string",
  tools: "number",
  transport: "string?",
  pid: "number?",
  url: "string?",
  error: "string?",
  serverInfo: optional({ name: "string", version: "string" }),
  era: "string?",
  protocolVersion: "string?",
  initializeMs: "number?",
};
const KB_HIT: Shape = {
  path: "string",
  startLine: "number",
  endLine: "number",
  heading: "string?",
  score: "number",
};

/** A subscription record's fields by its kind. */
const SUBSCRIPTION_KINDS: Readonly<Record<string, Shape>> = {
  opened: { era: "string", subject: "string", honored: "object?" },
  updated: { uri: "string" },
  updates_left_out: { count: "number", kept: "number" },
  closed: { subject: "string", why: "string", relisten: "boolean?" },
  failed: { subject: "string", reason: "string", retrying: "boolean?" },
};
const PROPOSED_CALL: Shape = {
  id: "string",
  step: "number",
  modelName: "string",
  server: "string?",
  tool: "string?",
  arguments: "object?",
  rawArguments: "string",
  tier: "string?",
  tierReason: "string?",
  toolNotes: "strings",
  problem: "string?",
};

const SHAPES: Readonly<Record<TraceRecord["type"], Shape>> = {
  session_start: { sessionId: "string?", version: "string?", model: "string?", cwd: "string?" },
  servers: { servers: [SERVER_STATE] },
  session_end: {},
  wire: {
    server: "string",
    direction: "string",
    at: "number",
    message: "json?",
    preview: "string?",
    chars: "number?",
  },
  wire_truncated: { limit: "number" },
  raw_result: { callId: "string", result: "object?", preview: "string?", chars: "number?" },
  server_exit: {
    server: "string",
    code: "number|null",
    signal: "string|null",
    errorLine: "string?",
    location: "string?",
    cause: "string?",
    stderrTail: "strings",
  },
  stdout_noise: { server: "string", line: "string" },
  // With the fields of its kind (SUBSCRIPTION_KINDS).
  subscription: { kind: "string", server: "string" },
  cache_hit: { server: "string", method: "string", key: "string", ttlMs: "number", leftMs: "number" },
  sampling: {
    server: "string",
    outcome: "string",
    by: "string",
    reason: "string",
    messages: "number",
    maxTokens: "number",
    modelHints: "strings",
    model: "string?",
    answerChars: "number?",
    edited: "boolean?",
  },
  elicitation: {
    server: "string",
    mode: "string",
    action: "string",
    by: "string",
    reason: "string",
    fields: "strings",
    domain: "string?",
  },
  input_round: {
    server: "string",
    method: "string",
    name: "string?",
    round: "number",
    asks: [{ key: "string", method: "string" }],
  },
  turn_start: { turn: "number", input: "string" },
  kb_hits: { hits: [KB_HIT] },
  model_request: {
    step: "number",
    messageCount: "number?",
    tools: ["string"],
    selection: optional({
      total: "number",
      offered: [{ name: "string", reason: "string", score: "number" }],
    }),
  },
  context_compacted: {
    trigger: oneOf("auto", "manual", "overflow"),
    window: "number",
    beforeTokens: "number",
    afterTokens: "number",
    dropped: COMPACTION_DROPS,
  },
  model_retry: { step: "number", attempt: "number", delayMs: "number", reason: "string" },
  text_delta: { step: "number", delta: "string" },
  model_step_end: {
    step: "number",
    finishReason: "string?",
    usage: "object?",
    latencyMs: "number?",
    firstTokenMs: "number?",
  },
  tool_call_proposed: { call: PROPOSED_CALL },
  approval_requested: { callId: "string", reason: "string?" },
  approval_decided: {
    callId: "string",
    approved: "boolean",
    by: "string",
    reason: "string",
    tier: "string?",
    tierReason: "string?",
  },
  tool_started: { callId: "string" },
  tool_progress: { callId: "string" },
  tool_task: { callId: "string", taskId: "string", status: "string", statusMessage: "string?" },
  tool_result: {
    callId: "string",
    ok: "boolean",
    forModel: "string?",
    display: "string?",
    structured: "string?",
    outputSchemaProblem: "string?",
    truncated: "boolean?",
    redactions: "strings",
    durationMs: "number?",
    failure: "string?",
  },
  warning: { message: "string" },
  error: { code: "string", message: "string" },
  turn_end: { reason: "string", steps: "number", usage: "object?", deniedCalls: "number?" },
};

/** Whether a trace record's `type` is one mcpterm writes (and so has a shape here). */
export function isRecordType(type: string): type is TraceRecord["type"] {
  return Object.hasOwn(SHAPES, type);
}

/** The record as a trace reader may use it, or why it cannot be read: the field and what it is. */
export type ShapedRecord = { record: TraceRecord } | { problem: string };

/**
 * Checks a record of a known type against its shape: a copy with wrong optional fields dropped,
 * or the first required field that is missing or of another kind.
 */
export function shapedRecord(record: { type: TraceRecord["type"] }): ShapedRecord {
  const fields = record as Record<string, unknown>;
  let shape = SHAPES[record.type];
  if (record.type === "subscription") {
    const kind = typeof fields.kind === "string" ? SUBSCRIPTION_KINDS[fields.kind] : undefined;
    if (!Object.hasOwn(SUBSCRIPTION_KINDS, String(fields.kind)) || !kind)
      return { problem: "its kind is not one mcpterm knows" };
    shape = { ...shape, ...kind };
  }
  const shaped = shapedObject(fields, shape, "");
  return typeof shaped === "string" ? { problem: shaped } : { record: shaped as unknown as TraceRecord };
}

function shapedObject(
  value: Readonly<Record<string, unknown>>,
  shape: Shape,
  path: string,
): Record<string, unknown> | string {
  const copy: Record<string, unknown> = { ...value };
  const dropped = new Set<string>();
  for (const [field, fieldShape] of Object.entries(shape)) {
    const name = `${path}${field}`;
    const item = value[field];
    /** Why the record cannot be read, where this field is required and is not `what`. */
    const problem = (what: string): string =>
      `its field "${name}" is ${item === undefined ? "missing" : `not ${what}`}`;
    if (fieldShape instanceof Check) {
      if (!fieldShape.test(item)) return problem(fieldShape.what);
    } else if (fieldShape === "strings") {
      copy[field] = Array.isArray(item) ? item.filter((entry) => typeof entry === "string") : [];
    } else if (typeof fieldShape === "string") {
      const kinds = fieldShape.replace(/\?$/, "").split("|");
      if (kindsOf(item).some((kind) => kinds.includes(kind))) continue;
      if (!fieldShape.endsWith("?"))
        return problem(kinds.map((kind) => KIND_NAMES[kind] ?? kind).join(" or "));
      dropped.add(field);
    } else if (Array.isArray(fieldShape)) {
      if (!Array.isArray(item)) return problem("a list");
      const [entryShape] = fieldShape;
      copy[field] = item.flatMap((entry: unknown) => {
        if (typeof entryShape === "string") return kindOf(entry) === entryShape ? [entry] : [];
        const shaped =
          kindOf(entry) === "object" ? shapedObject(entry as Record<string, unknown>, entryShape, "") : "";
        return typeof shaped === "string" ? [] : [shaped];
      });
    } else {
      const nested = fieldShape instanceof Optional ? fieldShape.shape : fieldShape;
      const shaped =
        kindOf(item) === "object"
          ? shapedObject(item as Record<string, unknown>, nested, `${name}.`)
          : problem("an object");
      if (typeof shaped !== "string") copy[field] = shaped;
      else if (fieldShape instanceof Optional) dropped.add(field);
      else return shaped;
    }
  }
  return dropped.size === 0
    ? copy
    : Object.fromEntries(Object.entries(copy).filter(([key]) => !dropped.has(key)));
}

const KIND_NAMES: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  null: "null",
};

/** A value's kind as shapes name it: "json" is anything a JSON text can hold (so not undefined). */
function kindsOf(value: unknown): string[] {
  return value === undefined ? [] : [kindOf(value), "json"];
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  // JSON's 1e999 reads as Infinity: no count or time is one.
  if (typeof value === "number" && !Number.isFinite(value)) return "infinite";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
