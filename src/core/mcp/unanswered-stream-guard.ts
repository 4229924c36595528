import type { FetchLike } from "@modelcontextprotocol/client";
import { OversizedMessageError } from "./response-size-cap.js";
import { CLIENT_RAISED } from "./server-sent-errors.js";

/** What a request whose response stream closed unanswered fails with. */
export const STREAM_CLOSED_MESSAGE = "the server closed the response stream before answering";
/** Its JSON-RPC code: implementation-defined, and it never leaves this process. */
export const STREAM_CLOSED_CODE = -32000;

type Fetch = FetchLike;

/** The type given an event the stream stopped in; the SDK reads only "message" events. */
const CUT_OFF_EVENT = "mcpterm-cut-off";

/**
 * Wraps the fetch a Streamable HTTP transport uses. When the server answers a POSTed request
 * with an SSE stream and then closes it (or the connection drops) without sending the response
 * and without an event id to resume from, the SDK would wait out the whole call timeout. Here
 * the stream ends instead with a JSON-RPC error for each request it left unanswered, so the
 * call fails at once and says why. Everything the server did send passes through unchanged.
 */
export function guardUnansweredStreams(base: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const ids = requestIds(init?.body);
    const type = response.headers.get("content-type") ?? "";
    if (ids.length === 0 || !response.body || !/^\s*text\/event-stream/i.test(type)) return response;
    return new Response(watch(response.body, ids), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The ids of the JSON-RPC requests (not notifications) in a POST body. */
function requestIds(body: unknown): Array<string | number> {
  if (typeof body !== "string") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((message: unknown) => {
    if (typeof message !== "object" || message === null || !("method" in message) || !("id" in message))
      return [];
    const { id } = message as { id: unknown };
    return typeof id === "string" || typeof id === "number" ? [id] : [];
  });
}

function watch(source: ReadableStream<Uint8Array>, ids: Array<string | number>): ReadableStream<Uint8Array> {
  const pending = new Set(ids);
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const reader = source.getReader();
  // The unfinished event's text, in the pieces it came in: joined once, when the event ends, so
  // a long event arriving in many chunks costs its length, not its length times its chunks.
  let pieces: string[] = [];
  // The last three characters seen, for a separator split between chunks.
  let tail = "";
  // An event id means the server made the stream resumable; the SDK reconnects then, not us.
  let resumable = false;

  const observe = (text: string): void => {
    // Once every request is answered (or the stream is resumable) there is nothing to watch for.
    if (resumable || pending.size === 0) return;
    const ended = /\r?\n\r?\n/.test(tail + text);
    tail = (tail + text.slice(-3)).slice(-3);
    pieces.push(text);
    if (!ended) return;
    const events = pieces.join("").split(/\r?\n\r?\n/);
    pieces = [events.pop() ?? ""];
    for (const event of events) {
      const lines = event.split(/\r?\n/);
      if (lines.some((line) => line.startsWith("id:"))) resumable = true;
      const data = lines
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n");
      for (const id of answeredIds(data)) pending.delete(id);
    }
  };
  const unanswered = (message = STREAM_CLOSED_MESSAGE): Uint8Array | undefined => {
    if (resumable || pending.size === 0) return undefined;
    const events = [...pending].map(
      (id) =>
        `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, error: { code: STREAM_CLOSED_CODE, message, data: { raisedBy: CLIENT_RAISED } } })}\n\n`,
    );
    pending.clear();
    // The stream may stop inside an event; ending that one first, under a type the SDK ignores,
    // keeps these answers from being read as the rest of its data.
    return encoder.encode(`\nevent: ${CUT_OFF_EVENT}\n\n${events.join("")}`);
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        // The connection dropped mid-stream, or an event outgrew what one message may be: answer
        // what is still open, then end cleanly.
        const closing = unanswered(error instanceof OversizedMessageError ? error.message : undefined);
        if (closing) controller.enqueue(closing);
        controller.close();
        return;
      }
      if (chunk.done) {
        const closing = unanswered();
        if (closing) controller.enqueue(closing);
        controller.close();
        return;
      }
      observe(decoder.decode(chunk.value, { stream: true }));
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** Ids of the JSON-RPC responses (result or error) in one SSE event's data. */
function answeredIds(data: string): Array<string | number> {
  if (!data) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return [];
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((message: unknown) => {
    if (typeof message !== "object" || message === null || "method" in message || !("id" in message))
      return [];
    if (!("result" in message) && !("error" in message)) return [];
    const { id } = message;
    return typeof id === "string" || typeof id === "number" ? [id] : [];
  });
}
