import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { isMalformedAnswer } from "../../src/core/mcp/malformed-answer.js";
import { LostAnswers, STRAY_GRACE_MS, type LostAnswersOptions } from "../../src/core/mcp/lost-answers.js";

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

/** A watcher and what it hands the SDK of its own, as the tapped transport wires it. */
function watching(options: LostAnswersOptions = {}): { watch: LostAnswers; delivered: JSONRPCMessage[] } {
  const watch = new LostAnswers(options);
  const delivered: JSONRPCMessage[] = [];
  watch.started((message) => delivered.push(message));
  return { watch, delivered };
}

describe("LostAnswers", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fails the one request waiting when its own answer does not follow a stray one", () => {
    const { watch, delivered } = watching();
    watch.sent(request(4));
    // The stray answer goes on to the SDK, which drops it; nothing is made up yet.
    expect(watch.received(answer(1004))).toEqual(answer(1004));
    vi.advanceTimersByTime(STRAY_GRACE_MS - 1);
    expect(delivered).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({
      id: 4,
      error: {
        message:
          "it answered with id 1004, which no request had, and its tools/call request (id 4) got no answer of its own within 3 s: an answer must carry the id of the request it answers",
      },
    });
    expect(isMalformedAnswer((delivered[0] as { error: { data: unknown } }).error.data)).toBe(true);
    // The request is over: a second stray answer finds nothing waiting.
    watch.received(answer(2004));
    vi.advanceTimersByTime(STRAY_GRACE_MS);
    expect(delivered).toHaveLength(1);
  });

  it("blames nothing when the request's own answer follows (a server answering a notification)", () => {
    const { watch, delivered } = watching();
    watch.sent({ jsonrpc: "2.0", method: "notifications/initialized" });
    watch.sent(request(1, "tools/list"));
    watch.received(answer("notif"));
    expect(watch.received(answer(1))).toEqual(answer(1));
    vi.advanceTimersByTime(STRAY_GRACE_MS * 2);
    expect(delivered).toEqual([]);
  });

  it("blames nothing when the request waiting was cancelled meanwhile", () => {
    const { watch, delivered } = watching();
    watch.sent(request(7));
    watch.received(answer(77));
    watch.sent(cancelled(7));
    vi.advanceTimersByTime(STRAY_GRACE_MS * 2);
    expect(delivered).toEqual([]);
  });

  it("passes answers to requests sent, as the SDK matches them, and late ones", () => {
    const { watch, delivered } = watching();
    watch.sent(request(0));
    watch.sent(request(1));
    watch.sent(request(2));
    // The SDK reads an id as Number(id): "1" answers 1, and "" answers 0.
    expect(watch.received(answer("1"))).toEqual(answer("1"));
    expect(watch.received(answer(""))).toEqual(answer(""));
    // Request 3 timed out and was cancelled; its answer comes late, while 2 waits.
    watch.sent(request(3));
    watch.sent(cancelled(3));
    watch.received(answer(3));
    // An answer to 1 again is no stray either: 1 was sent.
    watch.received(answer(1));
    watch.received(answer(2));
    vi.advanceTimersByTime(STRAY_GRACE_MS * 2);
    expect(delivered).toEqual([]);
  });

  it("leaves a stray answer to the SDK when none or several requests wait", () => {
    const { watch, delivered } = watching();
    watch.received(answer(9));
    watch.sent(request(1));
    watch.sent(request(2));
    watch.received(answer(9));
    vi.advanceTimersByTime(STRAY_GRACE_MS * 2);
    expect(delivered).toEqual([]);
  });

  it("does not count a request that waits by design (a 2026 listen stream) or the probe", () => {
    const { watch, delivered } = watching();
    watch.sent(request("server-discover-probe-1", "server/discover"));
    watch.sent(request("listen:0", "subscriptions/listen"));
    watch.sent(request(5));
    watch.received(answer(1005));
    vi.advanceTimersByTime(STRAY_GRACE_MS);
    expect(delivered).toMatchObject([{ id: 5, error: { code: -32603 } }]);
    // With only the listen stream open, a stray answer blames nothing.
    watch.received(answer(2005));
    vi.advanceTimersByTime(STRAY_GRACE_MS);
    expect(delivered).toHaveLength(1);
  });

  it("reads requests and notifications from the server as none of its business", () => {
    const { watch, delivered } = watching();
    watch.sent(request(1));
    const sampling = request(50, "sampling/createMessage");
    expect(watch.received(sampling)).toBe(sampling);
    // mcpterm's answer to the server's request is no request of its own.
    watch.sent(answer(50));
    watch.received(answer(1));
    vi.advanceTimersByTime(STRAY_GRACE_MS * 2);
    expect(delivered).toEqual([]);
  });

  it("remembers the last 4,096 request ids of a long session, and no more", () => {
    const { watch, delivered } = watching();
    for (let id = 1; id <= 10_000; id += 1) {
      watch.sent(request(id));
      watch.received(answer(id));
    }
    watch.sent(request(10_001));
    // The oldest id still remembered: a late answer, not a stray one.
    watch.received(answer(10_001 - 4_095));
    vi.advanceTimersByTime(STRAY_GRACE_MS);
    expect(delivered).toEqual([]);
    // The newest one forgotten: the request waiting is failed for it.
    watch.received(answer(10_001 - 4_096));
    vi.advanceTimersByTime(STRAY_GRACE_MS);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ id: 10_001 });
    expect(JSON.stringify(delivered[0])).toContain("answered with id 5905, which no request had");
  });

  it("counts an id sent again once: it does not push the others out", () => {
    const { watch, delivered } = watching();
    for (let id = 1; id <= 4_096; id += 1) {
      watch.sent(request(id));
      watch.received(answer(id));
    }
    for (let again = 0; again < 100; again += 1) watch.sent(request(4_096));
    watch.received(answer(4_096));
    watch.sent(request(4_097));
    // 1 is the one id that gave way to 4,097; a second answer to 2 is a late one, not a stray one.
    watch.received(answer(2));
    vi.advanceTimersByTime(STRAY_GRACE_MS);
    expect(delivered).toEqual([]);
    watch.received(answer(1));
    vi.advanceTimersByTime(STRAY_GRACE_MS);
    expect(delivered).toHaveLength(1);
  });

  it("on 2026-07-28, notes a request from the server and names it for a request that times out", () => {
    const notes: string[] = [];
    const { watch, delivered } = watching({ modern: () => true, note: (text) => notes.push(text) });
    watch.sent(request(1));
    const asked: JSONRPCMessage = { jsonrpc: "2.0", id: "s1", method: "roots/list", params: {} };
    // Handed on: the SDK drops it, as a 2026 client on stdio must, unanswered.
    expect(watch.received(asked)).toEqual(asked);
    const why =
      "2026-07-28 does not let a server send (it asks for roots, sampling or the person's input inside its answer, as input_required), so mcpterm leaves it unanswered";
    expect(notes).toEqual([`the server sent a roots/list request (id "s1"), which ${why}`]);
    // Nothing fails for it: the server may go on without the answer.
    vi.advanceTimersByTime(STRAY_GRACE_MS * 10);
    expect(delivered).toEqual([]);
    // Named for any request that times out after it: the server may be waiting for it still.
    expect(watch.explainSilence()).toBe(
      `it had sent a roots/list request (id "s1") and may be waiting for its answer; 2026-07-28 does not let a server send requests (it asks for roots, sampling or the person's input inside its answer, as input_required), so mcpterm left it unanswered`,
    );
  });

  it("notes a 2026 server's ping without naming it for a timeout, and cuts what it quotes", () => {
    const notes: string[] = [];
    const { watch } = watching({ modern: () => true, note: (text) => notes.push(text) });
    watch.received({ jsonrpc: "2.0", id: 9, method: "ping" });
    expect(watch.explainSilence()).toBeUndefined();
    watch.received({ jsonrpc: "2.0", id: 10, method: "x".repeat(500) });
    expect(notes).toHaveLength(2);
    expect(notes[1]).toMatch(/^the server sent a x{100}… request \(id 10\), which /);
    expect(watch.explainSilence()).toMatch(/^it had sent a x{100}… request \(id 10\)/);
  });

  it("leaves a 2025 server's requests to the SDK, which answers them", () => {
    const notes: string[] = [];
    const { watch, delivered } = watching({ modern: () => false, note: (text) => notes.push(text) });
    watch.sent(request(1));
    watch.received({ jsonrpc: "2.0", id: "s1", method: "roots/list" });
    vi.advanceTimersByTime(STRAY_GRACE_MS * 2);
    expect(delivered).toEqual([]);
    expect(notes).toEqual([]);
    expect(watch.explainSilence()).toBeUndefined();
  });

  it("names a stray answer that came while several waited for the first request to time out", () => {
    const { watch, delivered } = watching();
    watch.sent(request(1));
    watch.sent(request(2));
    watch.received(answer(1001));
    vi.advanceTimersByTime(STRAY_GRACE_MS * 2);
    // No telling which it was for: nothing fails for it, and a timeout says it.
    expect(delivered).toEqual([]);
    expect(watch.explainSilence()).toBe(
      "it answered with id 1001, which no request had, while several waited: that answer may have been this request's (an answer must carry the id of the request it answers)",
    );
    expect(watch.explainSilence()).toBeUndefined();
    // With one waiting, that one fails for it; no later timeout names it again.
    watch.received(answer(1));
    watch.received(answer(2));
    watch.sent(request(3));
    watch.received(answer(1003));
    vi.advanceTimersByTime(STRAY_GRACE_MS);
    expect(delivered).toHaveLength(1);
    expect(watch.explainSilence()).toBeUndefined();
  });
});
