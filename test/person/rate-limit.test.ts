import { describe, expect, it } from "vitest";
import { PerServerRateLimit } from "../../src/core/person/rate-limit.js";

describe("PerServerRateLimit", () => {
  it("takes one request per server at a time, and at most `limit` per window", () => {
    let now = 0;
    const limit = new PerServerRateLimit(2, 60_000, () => now);
    const first = limit.take("a");
    expect(first.ok).toBe(true);
    expect(limit.take("a")).toEqual({ ok: false, reason: "it already has a request waiting" });
    // Another server is not held up by the first.
    expect(limit.take("b").ok).toBe(true);
    if (first.ok) first.release();
    const second = limit.take("a");
    if (second.ok) second.release();
    expect(limit.take("a")).toEqual({
      ok: false,
      reason: "it sent 2 requests within 60 s, the most mcpterm takes",
    });
    now = 60_001;
    expect(limit.take("a").ok).toBe(true);
  });
});
