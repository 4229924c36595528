import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { CLIENT_RAISED, raisedByMcpterm } from "./server-sent-errors.js";

/**
 * The code of the error answer mcpterm makes up for a request whose answer came back broken:
 * JSON-RPC's internal error, the neutral one. What tells it apart is `data.raisedBy`.
 */
const MALFORMED_CODE = -32603;

/** What the made-up answer carries in `data`: mcpterm's stamp and that the answer was broken. */
interface MalformedData {
  raisedBy: string;
  malformedAnswer: true;
  /** The line as the server wrote it (its start), for the trace's wire view. */
  line: string;
}

/** How much of the broken line the made-up answer keeps. */
const LINE_KEPT = 2000;

/**
 * A line from a stdio server that is JSON and answers a request (it has an `id` and no
 * `method`) but is not a JSON-RPC response: `"result": "hello"`, both a result and an error, an
 * error without a message, a batch. The SDK cannot read it, so the request would wait out its
 * timeout and be sent again as if the server had not answered; instead each such answer becomes
 * an error answer of mcpterm's own, saying what was wrong, which the call reports as the server
 * breaking the protocol (never retried). Undefined for a line that answers nothing.
 */
export function answersToMalformed(line: string): JSONRPCMessage[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  const batch = Array.isArray(parsed);
  const answers = (batch ? (parsed as unknown[]) : [parsed]).flatMap((item) => {
    const id = answeredId(item);
    if (id === undefined) return [];
    const flaw = batch ? "it came in a JSON-RPC batch, which MCP does not allow" : flawOf(item as Answer);
    return [madeUpAnswer(id, flaw, line)];
  });
  return answers.length > 0 ? answers : undefined;
}

/**
 * The answer mcpterm makes up for a line that is not JSON but is an answer, broken (cut short, a
 * quote left unescaped), or undefined for any other line (a log line, a banner). Without it the
 * request would wait out its timeout as if the server had said nothing. Its id is read from the
 * members before its result or error, or from the ones that end it (see idBeforeBody, idAtEnd),
 * never from inside its result, where an `"id"` is some item's. Such a line may also be a
 * logger's cut copy of the answer that follows: the transport holds this one a moment first.
 */
export function answerToUnparsable(
  line: string,
): { id: string | number; answer: JSONRPCMessage } | undefined {
  let problem: string;
  try {
    JSON.parse(line);
    return undefined;
  } catch (error) {
    problem = (error as Error).message;
  }
  const id = idOfBrokenAnswer(line);
  return id === undefined
    ? undefined
    : { id, answer: madeUpAnswer(id, `it is not valid JSON (${problem})`, line) };
}

function idOfBrokenAnswer(line: string): string | number | undefined {
  const id = idBeforeBody(line) ?? idAtEnd(line);
  if (id === undefined) return undefined;
  if (!id.startsWith('"')) return Number(id);
  try {
    return JSON.parse(id) as string;
  } catch {
    return undefined;
  }
}

/** An id, as JSON writes it: an integer or a short string. */
const ID = String.raw`(-?\d{1,15}(?![\d.eE])|"(?:[^"\\]|\\.){0,100}")`;

/**
 * `{"jsonrpc":"2.0","id":2,"result":…`: the id among the members before the result or error,
 * which name the version and no method.
 */
function idBeforeBody(line: string): string | undefined {
  const body = /"(?:result|error)"\s*:/.exec(line.slice(0, 300));
  if (body === null) return undefined;
  const envelope = line.slice(0, body.index);
  if (!/^\s*\{/.test(envelope) || !/"jsonrpc"\s*:/.test(envelope) || /"method"\s*:/.test(envelope))
    return undefined;
  return new RegExp(String.raw`"id"\s*:\s*${ID}`).exec(envelope)?.[1];
}

/**
 * `{"result":…,"jsonrpc":"2.0","id":2}` (the order the TypeScript SDK writes), broken inside its
 * result (a quote left unescaped): the id that ends it. Not when it was cut short: its end is gone.
 */
function idAtEnd(line: string): string | undefined {
  if (!/^\s*\{\s*"(?:result|error)"\s*:/.test(line)) return undefined;
  return new RegExp(String.raw`,\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*${ID}\s*\}\s*$`).exec(
    line.slice(-200),
  )?.[1];
}

/** Whether a request failed because the server's answer to it was not JSON-RPC (see answersToMalformed). */
export function isMalformedAnswer(data: unknown): boolean {
  return raisedByMcpterm(data) && (data as Partial<MalformedData>).malformedAnswer === true;
}

type Answer = Record<string, unknown>;

function answeredId(item: unknown): string | number | undefined {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return undefined;
  const { id, method } = item as Answer;
  if (method !== undefined) return undefined;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : undefined;
}

/** What is wrong with an answer the SDK refused, in words a server's author can act on. */
function flawOf(answer: Answer): string {
  if (answer.jsonrpc !== "2.0") return 'its "jsonrpc" is not "2.0"';
  const hasResult = "result" in answer;
  const hasError = "error" in answer;
  if (hasResult && hasError) return "it has both a result and an error";
  if (!hasResult && !hasError) return "it has neither a result nor an error";
  const extra = Object.keys(answer).filter((key) => !RESPONSE_MEMBERS.has(key));
  if (extra.length > 0)
    return `it has members JSON-RPC does not define (${extra
      .slice(0, 5)
      .map((key) => JSON.stringify(key.slice(0, 40)))
      .join(", ")})`;
  if (typeof answer.id === "number" && !Number.isInteger(answer.id)) return "its id is a fraction";
  if (hasResult) return resultFlaw(answer.result);
  const error = answer.error as { code?: unknown; message?: unknown } | null;
  if (typeof error !== "object" || error === null || Array.isArray(error))
    return `its error is ${kindOf(error)}, not an object`;
  if (typeof error.code !== "number" || !Number.isInteger(error.code)) return "its error has no integer code";
  if (typeof error.message !== "string") return "its error has no message";
  return "it is not a JSON-RPC response";
}

/** What a response may hold (JSON-RPC 2.0). */
const RESPONSE_MEMBERS = new Set(["jsonrpc", "id", "result", "error"]);

function resultFlaw(result: unknown): string {
  if (typeof result !== "object" || result === null || Array.isArray(result))
    return `its result is ${kindOf(result)}, not an object`;
  const meta = (result as { _meta?: unknown })._meta;
  if (meta !== undefined && (typeof meta !== "object" || meta === null || Array.isArray(meta)))
    return `its result's _meta is ${kindOf(meta)}, not an object`;
  return "its result is not one the client can read";
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function madeUpAnswer(id: string | number, flaw: string, line: string): JSONRPCMessage {
  return brokenAnswer(id, `its answer to request ${JSON.stringify(id)} is not valid JSON-RPC: ${flaw}`, line);
}

/**
 * The error answer mcpterm makes up for request `id` when the server's answer to it came back
 * broken, saying `message` (what was wrong); `line` is that answer as the server wrote it.
 * The call reports it as the server breaking the protocol, never retried.
 */
export function brokenAnswer(id: string | number, message: string, line: string): JSONRPCMessage {
  const data: MalformedData = {
    raisedBy: CLIENT_RAISED,
    malformedAnswer: true,
    line: line.slice(0, LINE_KEPT),
  };
  return { jsonrpc: "2.0", id, error: { code: MALFORMED_CODE, message, data } };
}
