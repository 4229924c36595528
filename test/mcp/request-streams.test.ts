import type { JSONRPCMessage, TransportSendOptions } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { RequestStreams } from "../../src/core/mcp/request-streams.js";

const request = (id: number | string): JSONRPCMessage => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: {},
});
const answer = (id: number | string): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: { content: [] } });
const RESUME_FAILED = new Error("Failed to reconnect SSE stream: fetch failed");

/** Sends `message` and hands back the stream-end callback the transport would be given. */
function sent(streams: RequestStreams, message: JSONRPCMessage, options?: TransportSendOptions): () => void {
  const end = streams.sending(message, options)?.onRequestStreamEnd;
  if (!end) throw new Error("no stream-end callback");
  return end;
}

describe("RequestStreams", () => {
  it("tells of a loss once, when a stream ends unanswered after the SDK failed to resume it", () => {
    let lost = 0;
    const streams = new RequestStreams(() => (lost += 1));
    const first = sent(streams, request(1));
    const second = sent(streams, request(2));
    streams.transportError(RESUME_FAILED);
    streams.transportError(new Error("Maximum reconnection attempts (2) exceeded."));
    first();
    second();
    expect(lost).toBe(1);
  });

  it("leaves a stream that ended unanswered without a failed resume to the call's timeout", () => {
    // An answer the SDK could not read, say: not the server gone.
    let lost = 0;
    const streams = new RequestStreams(() => (lost += 1));
    const end = sent(streams, request(1));
    streams.transportError(new Error("Unexpected token < in JSON"));
    end();
    expect(lost).toBe(0);
  });

  it("counts a request answered, by its id as the SDK matches it, and an aborted or failed one as owed nothing", () => {
    let lost = 0;
    const streams = new RequestStreams(() => (lost += 1));
    const answered = sent(streams, request(5));
    streams.received(answer("5"));
    const abort = new AbortController();
    const aborted = sent(streams, request(6), { requestSignal: abort.signal });
    abort.abort();
    const failed = request(7);
    const unsent = sent(streams, failed);
    streams.notSent(failed);
    const cancelled = sent(streams, request(8));
    streams.sending(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 8, reason: "timeout" } },
      undefined,
    );
    streams.transportError(RESUME_FAILED);
    for (const end of [answered, aborted, unsent, cancelled]) end();
    expect(lost).toBe(0);
  });

  it("keeps the stream-end callback it was given", () => {
    let given = 0;
    const streams = new RequestStreams(() => undefined);
    sent(streams, request(1), { onRequestStreamEnd: () => (given += 1) })();
    expect(given).toBe(1);
    // Notifications and answers go as they were given.
    const options = { onRequestStreamEnd: () => undefined };
    expect(streams.sending({ jsonrpc: "2.0", method: "notifications/initialized" }, options)).toBe(options);
  });
});
