import { describe, expect, it } from "vitest";
import {
  cacheHintOf,
  MAX_KEPT_RESULT_CHARS,
  MAX_KEPT_TOTAL_CHARS,
  ResponseCache,
  type CacheHit,
} from "../../src/core/mcp/response-cache.js";

/** The cache's rules with a clock of the test's own: what is kept, for how long, and what ends it. */
function cacheAt(start = 1_000): { cache: ResponseCache; hits: CacheHit[]; tick: (ms: number) => void } {
  let now = start;
  const hits: CacheHit[] = [];
  const cache = new ResponseCache(
    "srv",
    (hit) => hits.push(hit),
    () => now,
  );
  return { cache, hits, tick: (ms) => (now += ms) };
}

/** A fetch that counts its calls and answers `result` with a fresh copy each time. */
function counted(result: object): { fetch: () => Promise<object>; calls: () => number } {
  let calls = 0;
  return {
    fetch: () => {
      calls += 1;
      return Promise.resolve({ ...result, call: calls });
    },
    calls: () => calls,
  };
}

describe("cacheHintOf", () => {
  it.each([
    [
      { ttlMs: 5000, cacheScope: "public" },
      { ttlMs: 5000, cacheScope: "public" },
    ],
    [{ ttlMs: 5000 }, { ttlMs: 5000, cacheScope: "private" }],
    [
      { ttlMs: 5000, cacheScope: "shared" },
      { ttlMs: 5000, cacheScope: "private" },
    ],
    [
      { ttlMs: -3, cacheScope: "public" },
      { ttlMs: 0, cacheScope: "public" },
    ],
    [{ ttlMs: "5000" }, undefined],
    [{ tools: [] }, undefined],
    [undefined, undefined],
  ])("%j -> %j", (result, hint) => {
    expect(cacheHintOf(result)).toEqual(hint);
  });
});

describe("ResponseCache", () => {
  it("answers from the cache within the ttl, and asks again after it", async () => {
    const { cache, hits, tick } = cacheAt();
    const server = counted({ ttlMs: 1000, cacheScope: "public" });
    await cache.through("tools/list", "", server.fetch);
    tick(999);
    expect(await cache.through("tools/list", "", server.fetch)).toMatchObject({ call: 1 });
    expect(hits).toEqual([{ server: "srv", method: "tools/list", key: "", ttlMs: 1000, leftMs: 1 }]);
    tick(1);
    expect(await cache.through("tools/list", "", server.fetch)).toMatchObject({ call: 2 });
  });

  it("never keeps a result without a ttl or with 0, and keeps each page and uri apart", async () => {
    const { cache } = cacheAt();
    const legacy = counted({ tools: [] });
    await cache.through("tools/list", "", legacy.fetch);
    await cache.through("tools/list", "", legacy.fetch);
    expect(legacy.calls()).toBe(2);
    const zero = counted({ ttlMs: 0 });
    await cache.through("resources/read", "a://1", zero.fetch);
    await cache.through("resources/read", "a://1", zero.fetch);
    expect(zero.calls()).toBe(2);
    const kept = counted({ ttlMs: 60_000 });
    await cache.through("tools/list", "page-2", kept.fetch);
    await cache.through("tools/list", "", kept.fetch);
    expect(kept.calls()).toBe(2);
    expect(cache.hints()).toEqual({
      "tools/list": { ttlMs: 60_000, cacheScope: "private" },
      "resources/read": { ttlMs: 0, cacheScope: "private" },
    });
  });

  it("a change makes every page of the method stale, or the one uri; fresh asks the server", async () => {
    const { cache } = cacheAt();
    const server = counted({ ttlMs: 60_000 });
    await cache.through("tools/list", "", server.fetch);
    await cache.through("tools/list", "page-2", server.fetch);
    await cache.through("resources/read", "a://1", server.fetch);
    await cache.through("resources/read", "a://2", server.fetch);
    cache.invalidate("tools/list");
    cache.invalidate("resources/read", "a://1");
    await cache.through("tools/list", "", server.fetch);
    await cache.through("tools/list", "page-2", server.fetch);
    await cache.through("resources/read", "a://1", server.fetch);
    await cache.through("resources/read", "a://2", server.fetch);
    expect(server.calls()).toBe(7);
    await cache.through("resources/read", "a://2", server.fetch, { fresh: true });
    expect(server.calls()).toBe(8);
  });

  it("a result larger than the single-result limit is never kept", async () => {
    const { cache } = cacheAt();
    const big = counted({
      ttlMs: 60_000,
      contents: [{ uri: "a://big", text: "x".repeat(MAX_KEPT_RESULT_CHARS) }],
    });
    await cache.through("resources/read", "a://big", big.fetch);
    await cache.through("resources/read", "a://big", big.fetch);
    expect(big.calls()).toBe(2);
  });

  it("results kept together stay within the total budget: the oldest go first", async () => {
    const { cache, hits } = cacheAt();
    // Each just under the single-result limit; together well past the total budget.
    const each = MAX_KEPT_RESULT_CHARS - 1000;
    const count = Math.ceil(MAX_KEPT_TOTAL_CHARS / each) + 4;
    const server = counted({ ttlMs: 60_000, contents: [{ uri: "a://n", text: "y".repeat(each) }] });
    for (let n = 0; n < count; n += 1) await cache.through("resources/read", `a://${n}`, server.fetch);
    await cache.through("resources/read", `a://${count - 1}`, server.fetch);
    expect(hits.map((hit) => hit.key)).toEqual([`a://${count - 1}`]);
    await cache.through("resources/read", "a://0", server.fetch);
    expect(server.calls()).toBe(count + 1);
  });

  it("an answer the caller says may not be kept (a retry after asking the person) is not", async () => {
    const { cache } = cacheAt();
    const server = counted({ ttlMs: 60_000 });
    await cache.through("resources/read", "a://1", server.fetch, { keepable: () => false });
    await cache.through("resources/read", "a://1", server.fetch);
    expect(server.calls()).toBe(2);
  });

  it("an answer that was on its way while a change arrived is not kept", async () => {
    const { cache } = cacheAt();
    const server = counted({ ttlMs: 60_000 });
    await cache.through("resources/read", "a://1", async () => {
      cache.invalidate("resources/read", "a://1");
      return server.fetch();
    });
    await cache.through("resources/read", "a://1", server.fetch);
    expect(server.calls()).toBe(2);
  });

  it("private results go with the authorization context, public ones stay; the ttl is capped at a day", async () => {
    const { cache, tick } = cacheAt();
    const secret = counted({ ttlMs: 60_000, cacheScope: "private" });
    const open = counted({ ttlMs: 10 * 86_400_000, cacheScope: "public" });
    await cache.through("resources/read", "a://me", secret.fetch);
    await cache.through("tools/list", "", open.fetch);
    cache.dropPrivate();
    await cache.through("resources/read", "a://me", secret.fetch);
    await cache.through("tools/list", "", open.fetch);
    expect([secret.calls(), open.calls()]).toEqual([2, 1]);
    tick(86_400_000);
    await cache.through("tools/list", "", open.fetch);
    expect(open.calls()).toBe(2);
  });

  it("hands out a copy: a reader that changes it does not change the next reader's", async () => {
    const { cache } = cacheAt();
    const fetch = () => Promise.resolve({ ttlMs: 60_000, tools: [{ name: "a" }] });
    (await cache.through("tools/list", "", fetch)).tools.push({ name: "fetched" });
    (await cache.through("tools/list", "", fetch)).tools.push({ name: "served" });
    expect((await cache.through("tools/list", "", fetch)).tools).toEqual([{ name: "a" }]);
  });
});
