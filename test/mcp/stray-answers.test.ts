import { describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { isMalformedAnswer } from "../../src/core/mcp/malformed-answer.js";
import { StrayAnswers } from "../../src/core/mcp/stray-answers.js";

const request = (id: string | number, method = "tools/call"): JSONRPCMessage => ({
  jsonrpc: "2.0",
  id,
  method,
  params: {},
});
const answer = (id: string | number): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: { content: [] } });
const cancelled = (requestId: string | number): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId },
});

describe("StrayAnswers", () => {
  it("turns an answer with an unknown id into an error answer for the one request waiting", () => {
    const watch = new StrayAnswers();
    watch.sent(request(4));
    const made = watch.received(answer(1004));
    expect(made).toMatchObject({
      id: 4,
      error: {
        message:
          "it answered with id 1004, which no request had, while its tools/call request (id 4) waited: an answer must carry the id of the request it answers",
      },
    });
    expect(isMalformedAnswer((made as { error: { data: unknown } }).error.data)).toBe(true);
    // The request is over: a second stray answer finds nothing waiting and goes to the SDK.
    expect(watch.received(answer(2004))).toEqual(answer(2004));
  });

  it("passes answers to requests sent, as the SDK matches them, and late ones", () => {
    const watch = new StrayAnswers();
    watch.sent(request(1));
    watch.sent(request(2));
    expect(watch.received(answer("1"))).toEqual(answer("1"));
    // Request 3 timed out and was cancelled; its answer comes late, while 2 waits.
    watch.sent(request(3));
    watch.sent(cancelled(3));
    expect(watch.received(answer(3))).toEqual(answer(3));
    // An answer to 1 again is no stray either: 1 was sent.
    expect(watch.received(answer(1))).toEqual(answer(1));
    expect(watch.received(answer(2))).toEqual(answer(2));
  });

  it("leaves a stray answer to the SDK when none or several requests wait", () => {
    const watch = new StrayAnswers();
    expect(watch.received(answer(9))).toEqual(answer(9));
    watch.sent(request(1));
    watch.sent(request(2));
    expect(watch.received(answer(9))).toEqual(answer(9));
    // Still both waiting: each gets its own answer.
    expect(watch.received(answer(1))).toEqual(answer(1));
    expect(watch.received(answer(2))).toEqual(answer(2));
  });

  it("matches a string id only by itself, as mcpterm's probe is matched", () => {
    const watch = new StrayAnswers();
    watch.sent(request("server-discover-probe-1", "server/discover"));
    const made = watch.received(answer("server-discover-probe-11000"));
    expect(made).toMatchObject({ id: "server-discover-probe-1", error: { code: -32603 } });
  });

  it("reads requests and notifications from the server as none of its business", () => {
    const watch = new StrayAnswers();
    watch.sent(request(1));
    const sampling = request(50, "sampling/createMessage");
    expect(watch.received(sampling)).toBe(sampling);
    // mcpterm's answer to the server's request is no request of its own.
    watch.sent(answer(50));
    expect(watch.received(answer(1))).toEqual(answer(1));
  });
});
