import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONTEXT_WINDOW_CACHE_MS, ContextWindowCache } from "../../src/core/llm/context-window-cache.js";
import { tempDir } from "../support/fixtures.js";

const WINDOW = { tokens: 50_000, source: "server", detail: "GET /v1/models (max_model_len)" } as const;

describe("ContextWindowCache", () => {
  it("answers for a day per endpoint and model, then asks again", async () => {
    const dir = path.join(await tempDir(), "cache");
    let now = 1_000_000;
    const cache = new ContextWindowCache(dir, () => now);
    cache.set("http://a/v1/", "m", WINDOW);
    expect(cache.get("http://a/v1", "m")).toMatchObject({ tokens: 50_000, source: "server" });
    expect(cache.get("http://a/v1", "other")).toBeUndefined();
    expect(cache.get("http://b/v1", "m")).toBeUndefined();
    now += CONTEXT_WINDOW_CACHE_MS - 1;
    expect(cache.get("http://a/v1", "m")?.tokens).toBe(50_000);
    now += 1;
    expect(cache.get("http://a/v1", "m")).toBeUndefined();
  });

  it("treats a torn or foreign file as empty, and replaces it", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "context-windows.json"), '{"x": {"tokens": "many"');
    const cache = new ContextWindowCache(dir);
    expect(cache.get("http://a/v1", "m")).toBeUndefined();
    cache.set("http://a/v1", "m", WINDOW);
    expect(cache.get("http://a/v1", "m")?.tokens).toBe(50_000);
  });
});
