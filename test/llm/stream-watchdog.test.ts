import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { StreamStalled, StreamWatchdog, type StartTimer } from "../../src/core/llm/stream-watchdog.js";

/** Timers that fire only when the test says so. */
function manualTimers(): { startTimer: StartTimer; fire: () => void; pending: () => number[] } {
  const timers = new Map<() => void, number>();
  return {
    startTimer: (callback, ms) => {
      timers.set(callback, ms);
      return () => timers.delete(callback);
    },
    fire: () => {
      for (const callback of [...timers.keys()]) {
        timers.delete(callback);
        callback();
      }
    },
    pending: () => [...timers.values()],
  };
}

describe("StreamWatchdog", () => {
  it("cancels the request and records the stall when a wait runs out", () => {
    const timers = manualTimers();
    const watchdog = new StreamWatchdog(timers.startTimer, undefined);
    watchdog.expect({ phase: "first_token", limitMs: 300 });
    expect(timers.pending()).toEqual([300]);
    timers.fire();
    expect(watchdog.signal.aborted).toBe(true);
    expect(watchdog.signal.reason).toBeInstanceOf(StreamStalled);
    expect(watchdog.stalled).toEqual({ phase: "first_token", limitMs: 300 });
  });

  it("keeps one wait at a time and stops it on pause", () => {
    const timers = manualTimers();
    const watchdog = new StreamWatchdog(timers.startTimer, undefined);
    watchdog.expect({ phase: "first_token", limitMs: 300 });
    watchdog.expect({ phase: "idle", limitMs: 100 });
    expect(timers.pending()).toEqual([100]);
    watchdog.pause();
    expect(timers.pending()).toEqual([]);
    expect(watchdog.signal.aborted).toBe(false);
  });

  it("follows the caller's abort without calling it a stall, and starts no wait after it", () => {
    const timers = manualTimers();
    const caller = new AbortController();
    const watchdog = new StreamWatchdog(timers.startTimer, caller.signal);
    watchdog.expect({ phase: "idle", limitMs: 100 });
    caller.abort("SIGINT");
    expect(watchdog.signal.aborted).toBe(true);
    expect(watchdog.signal.reason).toBe("SIGINT");
    expect(timers.pending()).toEqual([]);
    watchdog.expect({ phase: "idle", limitMs: 100 });
    expect(timers.pending()).toEqual([]);
    expect(watchdog.stalled).toBeUndefined();
  });

  it("starts out cancelled when the caller's signal already fired", () => {
    const watchdog = new StreamWatchdog(manualTimers().startTimer, AbortSignal.abort("SIGTERM"));
    expect(watchdog.signal.reason).toBe("SIGTERM");
  });

  it("takes its listener off the caller's signal and clears its wait on dispose", () => {
    const timers = manualTimers();
    const caller = new AbortController();
    const watchdog = new StreamWatchdog(timers.startTimer, caller.signal);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(1);
    watchdog.expect({ phase: "idle", limitMs: 100 });
    watchdog.dispose();
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    expect(timers.pending()).toEqual([]);
  });
});
