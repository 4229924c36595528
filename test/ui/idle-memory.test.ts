import v8 from "node:v8";
import { afterEach, describe, expect, it, vi } from "vitest";
import { QUIET_MS, idleMemoryRelease, memoryReducingCollector } from "../../src/ui/terminal/idle-memory.js";

afterEach(() => {
  vi.useRealTimers();
});

const youngGenerationBytes = (): number =>
  v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;

describe("giving memory back when the TUI is quiet", () => {
  it("collects once after a quiet spell, never while activity keeps coming", () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const release = idleMemoryRelease(collect);
    release.activity();
    for (let tick = 0; tick < 20; tick += 1) {
      vi.advanceTimersByTime(QUIET_MS - 1);
      release.activity();
    }
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(QUIET_MS);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(QUIET_MS * 10);
    expect(collect).toHaveBeenCalledTimes(1);
    release.activity();
    vi.advanceTimersByTime(QUIET_MS);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it("collects nothing while a turn runs, and once after it ends", () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    let turnRunning = true;
    const release = idleMemoryRelease(collect, { busy: () => turnRunning });
    release.activity();
    vi.advanceTimersByTime(QUIET_MS * 3);
    expect(collect).not.toHaveBeenCalled();
    turnRunning = false;
    release.activity();
    vi.advanceTimersByTime(QUIET_MS);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it("collects nothing after dispose", () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const release = idleMemoryRelease(collect);
    release.activity();
    release.dispose();
    vi.advanceTimersByTime(QUIET_MS * 2);
    expect(collect).not.toHaveBeenCalled();
  });

  it("shrinks V8's young generation back after a burst of short-lived objects", () => {
    const collect = memoryReducingCollector();
    let kept: Array<{ index: number; text: string }> = [];
    for (let index = 0; index < 2_000_000; index += 1) {
      kept.push({ index, text: `item ${index}` });
      if (kept.length > 20_000) kept = [];
    }
    const grown = youngGenerationBytes();
    collect();
    expect(youngGenerationBytes()).toBeLessThan(grown / 2);
  });
});
