import { describe, expect, it } from "vitest";
import {
  isRetryable,
  planRetryWait,
  serverRetryAfterMs,
  type RequestFailure,
} from "../../src/core/llm/retry-policy.js";

describe("isRetryable", () => {
  const cases: Array<[RequestFailure, boolean]> = [
    [{ type: "http", status: 429 }, true],
    [{ type: "http", status: 408 }, true],
    [{ type: "http", status: 409 }, true],
    [{ type: "http", status: 500 }, true],
    [{ type: "http", status: 502 }, true],
    [{ type: "http", status: 503 }, true],
    [{ type: "http", status: 400 }, false],
    [{ type: "http", status: 401 }, false],
    [{ type: "http", status: 403 }, false],
    [{ type: "http", status: 404 }, false],
    [{ type: "http", status: 422 }, false],
    [{ type: "network", code: "ECONNRESET" }, true],
    [{ type: "network", code: "ECONNREFUSED" }, true],
    [{ type: "network", code: "ETIMEDOUT" }, true],
    [{ type: "network", code: "UND_ERR_SOCKET" }, true],
    [{ type: "network", code: undefined }, true],
    [{ type: "network", code: "ENOTFOUND" }, false],
    [{ type: "timeout" }, true],
  ];
  it.each(cases)("%j -> %s", (failure, expected) => {
    expect(isRetryable(failure)).toBe(expected);
  });
});

describe("planRetryWait", () => {
  const now = Date.UTC(2025, 0, 1, 0, 0, 0);
  const noJitter = { random: () => 0, now };
  const wait = (delayMs: number) => ({ kind: "wait", delayMs });
  const tooLong = (askedMs: number) => ({ kind: "too_long", askedMs });
  const cases: Array<[string, number, Record<string, string> | undefined, object, object]> = [
    ["first retry, no jitter", 1, undefined, noJitter, wait(500)],
    ["second retry doubles", 2, undefined, noJitter, wait(1000)],
    ["fourth retry", 4, undefined, noJitter, wait(4000)],
    ["backoff is capped", 12, undefined, noJitter, wait(20_000)],
    ["jitter takes at most a quarter off", 1, undefined, { random: () => 1, now }, wait(375)],
    ["custom base delay", 2, undefined, { ...noJitter, baseDelayMs: 100 }, wait(200)],
    ["retry-after seconds", 1, { "retry-after": "3" }, noJitter, wait(3000)],
    ["retry-after fractional seconds", 1, { "Retry-After": "1.5" }, noJitter, wait(1500)],
    ["retry-after-ms wins", 1, { "retry-after-ms": "250", "retry-after": "3" }, noJitter, wait(250)],
    [
      "retry-after as HTTP date",
      1,
      { "retry-after": new Date(now + 7000).toUTCString() },
      noJitter,
      wait(7000),
    ],
    [
      "retry-after date in the past",
      1,
      { "retry-after": new Date(now - 7000).toUTCString() },
      noJitter,
      wait(0),
    ],
    ["retry-after exactly the cap is waited", 1, { "retry-after": "20" }, noJitter, wait(20_000)],
    [
      "retry-after over the cap is not waited at all",
      1,
      { "retry-after": "3600" },
      noJitter,
      tooLong(3_600_000),
    ],
    ["retry-after-ms over the cap", 1, { "retry-after-ms": "60000" }, noJitter, tooLong(60_000)],
    [
      "retry-after date past the cap",
      1,
      { "retry-after": new Date(now + 7_200_000).toUTCString() },
      noJitter,
      tooLong(7_200_000),
    ],
    ["custom cap", 1, { "retry-after": "10" }, { ...noJitter, maxRetryDelayMs: 2000 }, tooLong(10_000)],
    ["garbage retry-after falls back to backoff", 2, { "retry-after": "soon" }, noJitter, wait(1000)],
    ["retry-after is not jittered", 1, { "retry-after": "2" }, { random: () => 1, now }, wait(2000)],
  ];
  it.each(cases)("%s", (_name, attempt, headers, options, expected) => {
    expect(planRetryWait(attempt, headers, options)).toEqual(expected);
  });

  it("reads a Headers object too", () => {
    expect(serverRetryAfterMs(new Headers({ "Retry-After": "2" }), now)).toBe(2000);
    expect(serverRetryAfterMs(new Headers(), now)).toBeUndefined();
  });
});
