/**
 * A model stream that goes silent, against the real `openai` client and a real HTTP server.
 * Limits are small (300 ms) so the stalls end quickly; nothing asserts how long anything took.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { LlmError } from "../../src/core/errors.js";
import { startRealTimer, type StartTimer } from "../../src/core/llm/stream-watchdog.js";
import type { ModelStreamEvent } from "../../src/core/llm/types.js";
import type { ScriptedReply } from "../support/scripted-model-server.js";
import { ask, collect, done, failure, fakeSleep, modelFor, scriptedServerPerTest } from "./helpers.js";

const { start } = scriptedServerPerTest();

/** Real timers, counted, so a test can see that none is left running. */
function countingTimers(): { startTimer: StartTimer; live: () => number; started: () => number } {
  let live = 0;
  let started = 0;
  const startTimer: StartTimer = (callback, ms) => {
    live++;
    started++;
    let settled = false;
    const settle = () => {
      if (!settled) live--;
      settled = true;
    };
    const cancel = startRealTimer(() => {
      settle();
      callback();
    }, ms);
    return () => {
      settle();
      cancel();
    };
  };
  return { startTimer, live: () => live, started: () => started };
}

const texts = (events: ModelStreamEvent[]) => events.flatMap((e) => (e.type === "text" ? [e.delta] : []));

/** A short mid-answer limit, and a first-token limit long enough that it never decides these tests. */
const idleOnly = { idleTimeoutMs: 300, firstTokenTimeoutMs: 60_000 };
/** The other way round. */
const firstTokenOnly = { idleTimeoutMs: 60_000, firstTokenTimeoutMs: 300 };

describe("a model stream that goes silent", () => {
  it("after its first chunk ends in a stalled error, keeps the text shown and is not replayed", async () => {
    const s = await start({ stallAfterChunks: 1, text: "Hello there" }, { text: "never asked" });
    const timers = countingTimers();
    const events: ModelStreamEvent[] = [];
    const model = modelFor(s, { startTimer: timers.startTimer, sleep: fakeSleep().sleep }, idleOnly);
    const error = await failure(model, ask(), events);
    expect(error.kind).toBe("stalled");
    expect(error.exitCode).toBe(1);
    expect(error.message).toBe(
      `The model endpoint at ${s.baseUrl} went silent for 300 ms mid-answer; check the server, or raise model.idleTimeoutMs (or MCPTERM_MODEL_IDLE_TIMEOUT_MS) if it is just slow.`,
    );
    expect(error.message).not.toContain("sk-secret");
    expect(texts(events)).toEqual(["Hell"]);
    expect(events.some((e) => e.type === "retry")).toBe(false);
    expect(s.requests).toHaveLength(1);
    expect(timers.live()).toBe(0);
  });

  it.each([0, 1])(
    "ends stalled though the server keeps sending empty chunks (after %i chunks of text)",
    async (sent) => {
      const keptAlive: ScriptedReply = { stallAfterChunks: sent, text: "Hello there", keepAliveEveryMs: 40 };
      const s = await start(keptAlive, keptAlive);
      const limits = sent === 0 ? firstTokenOnly : idleOnly;
      const error = await failure(modelFor(s, { sleep: fakeSleep().sleep }, limits), ask(), []);
      expect(error.kind).toBe("stalled");
      expect(error.message).toMatch(/went silent for 300 ms/);
    },
  );

  it.each(["usage", "finish", "tool-piece"] as const)(
    "ends stalled though the server keeps repeating what says nothing new (%s)",
    async (keepAlive) => {
      const repeating: ScriptedReply = {
        stallAfterChunks: 1,
        text: "Hello there",
        keepAliveEveryMs: 40,
        keepAlive,
      };
      const s = await start(repeating);
      const error = await failure(modelFor(s, { sleep: fakeSleep().sleep }, idleOnly), ask(), []);
      expect(error.kind).toBe("stalled");
      expect(error.message).toMatch(/went silent for 300 ms mid-answer/);
    },
  );

  it("ends an answer that streams past the longest an answer may take, reasoning for ever, without a retry", async () => {
    const thinking: ScriptedReply = {
      stallAfterChunks: 1,
      text: "Hello there",
      keepAliveEveryMs: 20,
      keepAlive: "reasoning",
    };
    const s = await start(thinking, { text: "never asked" });
    const events: ModelStreamEvent[] = [];
    const model = modelFor(s, { sleep: fakeSleep().sleep, maxAnswerMs: 400 }, idleOnly);
    const error = await failure(model, ask(), events);
    expect(error.kind).toBe("stalled");
    expect(error.message).toBe(
      `The model endpoint at ${s.baseUrl} kept one answer streaming for more than 400 ms without finishing, so mcpterm stopped it; check the server (the part already shown is kept).`,
    );
    expect(texts(events)).toEqual(["Hell"]);
    expect(s.requests).toHaveLength(1);
  });

  it("before its first chunk is retried once, then ends naming the first-token limit", async () => {
    const silent: ScriptedReply = { stallAfterChunks: 0, text: "unsent" };
    const s = await start(silent, silent, { text: "never asked" });
    const timers = countingTimers();
    const { delays, sleep } = fakeSleep();
    const events: ModelStreamEvent[] = [];
    const model = modelFor(s, { startTimer: timers.startTimer, sleep }, firstTokenOnly);
    const error = await failure(model, ask(), events);
    expect(error.kind).toBe("stalled");
    expect(error.message).toBe(
      `The model endpoint at ${s.baseUrl} went silent for 300 ms before its answer began after 1 retry; check the server, or raise model.firstTokenTimeoutMs (or MCPTERM_MODEL_FIRST_TOKEN_TIMEOUT_MS) if the model needs longer to start.`,
    );
    expect(events).toEqual([{ type: "retry", attempt: 1, delayMs: delays[0], reason: "no data for 300 ms" }]);
    expect(s.requests).toHaveLength(2);
    expect(timers.live()).toBe(0);
  });

  it("before its first chunk is answered by the retry when the server recovers", async () => {
    const s = await start({ stallAfterChunks: 0, text: "unsent" }, { text: "second try" });
    const events = await collect(modelFor(s, { sleep: fakeSleep().sleep }, firstTokenOnly));
    expect(events[0]).toMatchObject({ type: "retry", reason: "no data for 300 ms" });
    expect(done(events).text).toBe("second try");
    expect(s.requests).toHaveLength(2);
  });

  it("ends as aborted, not stalled, when the user cancels during the silence, leaving no timer or listener", async () => {
    const s = await start({ stallAfterChunks: 1, text: "Hello there" });
    const timers = countingTimers();
    const controller = new AbortController();
    const model = modelFor(s, { startTimer: timers.startTimer }, { idleTimeoutMs: 60_000 });
    let liveWhenCancelled: number | undefined;
    let caught: unknown;
    try {
      for await (const event of model.stream(ask({ signal: controller.signal }))) {
        if (event.type !== "text") continue;
        // Once the loop is parked waiting for the next chunk, which never comes.
        setImmediate(() => {
          liveWhenCancelled = timers.live();
          controller.abort();
        });
      }
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LlmError);
    expect((caught as LlmError).kind).toBe("aborted");
    expect(liveWhenCancelled).toBe(1);
    expect(timers.live()).toBe(0);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("leaves no timer or listener behind after a stream that completes or is dropped early", async () => {
    const s = await start({ text: "Hello, world!", chunkSize: 2 }, { text: "Hello, world!", chunkSize: 2 });
    const timers = countingTimers();
    const controller = new AbortController();
    const model = modelFor(s, { startTimer: timers.startTimer }, idleOnly);

    expect(done(await collect(model, ask({ signal: controller.signal }))).text).toBe("Hello, world!");
    expect(timers.started()).toBeGreaterThan(0);
    expect(timers.live()).toBe(0);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);

    for await (const event of model.stream(ask({ signal: controller.signal }))) {
      if (event.type === "text") break;
    }
    expect(timers.live()).toBe(0);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("does not count the time the consumer takes with a chunk", async () => {
    const s = await start({ text: "Hello, world!", chunkSize: 5 });
    const pending = new Set<() => void>();
    let started = 0;
    // Timers that never fire on their own: a live one while the consumer holds a chunk would be the bug.
    const startTimer: StartTimer = (callback) => {
      started++;
      pending.add(callback);
      return () => pending.delete(callback);
    };
    const seen: number[] = [];
    for await (const event of modelFor(s, { startTimer }, idleOnly).stream(ask())) {
      if (event.type === "text") seen.push(pending.size);
    }
    expect(seen).toEqual([0, 0, 0]);
    expect(started).toBeGreaterThan(3);
    expect(pending.size).toBe(0);
  });
});
