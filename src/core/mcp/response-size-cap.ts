import type { FetchLike } from "@modelcontextprotocol/client";
import { MAX_MESSAGE_SIZE, oversizedMessage } from "./message-limit.js";

/**
 * How much of an error page (a response that is not 2xx) is read: its title and first words are
 * all a sentence quotes, and a server answering 500 with an endless page must not fill memory.
 */
export const ERROR_PAGE_BYTES = 64 * 1024;

/** Statuses whose responses have no body; a Response built with one would throw. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/** A response body stopped for holding one message past the limit; its message says so. */
export class OversizedMessageError extends Error {
  override readonly name = "OversizedMessageError";
}

/**
 * Wraps the fetch a remote transport uses so no response from a server can take more memory
 * than one message may (as over stdio): a JSON body past `limit` bytes, or one SSE event past it,
 * fails with OversizedMessageError and stops the download; an error page is read only as far as
 * ERROR_PAGE_BYTES. Without this, the SDK reads whatever a server sends: a 500 MB error page took
 * 3.1 GB of memory.
 */
export function capResponseBodies(
  base: FetchLike,
  {
    limit = MAX_MESSAGE_SIZE,
    onOversized,
  }: {
    limit?: number;
    /**
     * Told when a body was stopped. The legacy SSE transport needs it: its answers come on one
     * long-lived stream, and once that is stopped nothing would ever answer the calls out.
     */
    onOversized?: (error: OversizedMessageError) => void;
  } = {},
): FetchLike {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body || NO_BODY.has(response.status)) return response;
    const eventStream = /^\s*text\/event-stream/i.test(response.headers.get("content-type") ?? "");
    const tooBig = (): OversizedMessageError => {
      const error = oversized(limit);
      onOversized?.(error);
      return error;
    };
    const body = !response.ok
      ? firstBytes(response.body, ERROR_PAGE_BYTES)
      : eventStream
        ? eventsUpTo(response.body, limit, tooBig)
        : wholeUpTo(response.body, limit, Number(response.headers.get("content-length") ?? NaN), tooBig);
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The first `bytes` of a body, then its end; the rest is never downloaded. */
function firstBytes(source: ReadableStream<Uint8Array>, bytes: number): ReadableStream<Uint8Array> {
  let left = bytes;
  return passThrough(source, (chunk, controller, stop) => {
    controller.enqueue(chunk.length <= left ? chunk : chunk.subarray(0, left));
    left -= chunk.length;
    if (left <= 0) stop();
  });
}

/** A whole body (one JSON-RPC message or a batch of them) that fails once past `limit` bytes. */
function wholeUpTo(
  source: ReadableStream<Uint8Array>,
  limit: number,
  declared: number,
  tooBig: () => OversizedMessageError,
): ReadableStream<Uint8Array> {
  let total = 0;
  return passThrough(
    source,
    (chunk, controller, _stop, fail) => {
      total += chunk.length;
      if (total > limit) fail(tooBig());
      else controller.enqueue(chunk);
    },
    // A Content-Length past the limit fails before a byte is read.
    declared > limit ? tooBig() : undefined,
  );
}

/**
 * An SSE stream, which may last for hours, that fails when one event runs past `limit` bytes.
 * An event ends at a blank line; lines end at a line feed (a carriage return before it is part
 * of the ending). Lines ended by a lone carriage return are not told apart (no server sends
 * them), so such a stream counts as one event.
 */
function eventsUpTo(
  source: ReadableStream<Uint8Array>,
  limit: number,
  tooBig: () => OversizedMessageError,
): ReadableStream<Uint8Array> {
  let eventBytes = 0;
  // Whether the line read so far holds nothing (or only a carriage return): a chunk may end inside it.
  let lineEmpty = true;
  return passThrough(source, (chunk, controller, _stop, fail) => {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let from = 0;
    for (let feed = bytes.indexOf(0x0a); feed !== -1; feed = bytes.indexOf(0x0a, from)) {
      eventBytes += feed + 1 - from;
      if (eventBytes > limit) {
        fail(tooBig());
        return;
      }
      if (lineEmpty && isEmptyLine(bytes, from, feed)) eventBytes = 0;
      lineEmpty = true;
      from = feed + 1;
    }
    eventBytes += bytes.length - from;
    lineEmpty &&= isEmptyLine(bytes, from, bytes.length);
    if (eventBytes > limit) {
      fail(tooBig());
      return;
    }
    controller.enqueue(chunk);
  });
}

/** Whether bytes[from, to) is nothing, or a carriage return alone. */
function isEmptyLine(bytes: Buffer, from: number, to: number): boolean {
  return to === from || (to === from + 1 && bytes[from] === 0x0d);
}

function oversized(limit: number): OversizedMessageError {
  return new OversizedMessageError(oversizedMessage(limit));
}

type Step = (
  chunk: Uint8Array,
  controller: ReadableStreamDefaultController<Uint8Array>,
  stop: () => void,
  fail: (error: Error) => void,
) => void;

/**
 * A stream that hands each chunk of `source` to `step`, pulled as the reader asks (so the
 * download never runs ahead of it). `stop` ends it cleanly and `fail` errors it; both cancel the
 * source, which closes the connection. `failAtOnce`: the error it fails with before any read.
 */
function passThrough(
  source: ReadableStream<Uint8Array>,
  step: Step,
  failAtOnce?: Error,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let finished = false;
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>, error?: Error): void => {
    finished = true;
    void reader.cancel().catch(() => undefined);
    if (error) controller.error(error);
    else controller.close();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (failAtOnce) finish(controller, failAtOnce);
    },
    async pull(controller) {
      if (finished) return;
      const chunk = await reader.read();
      if (chunk.done) {
        finished = true;
        controller.close();
        return;
      }
      step(
        chunk.value,
        controller,
        () => finish(controller),
        (error) => finish(controller, error),
      );
    },
    cancel(reason) {
      finished = true;
      return reader.cancel(reason);
    },
  });
}
