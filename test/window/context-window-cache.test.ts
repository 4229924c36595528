import { execFileSync } from "node:child_process";
import type { AddressInfo } from "node:net";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { askContextWindow } from "../../src/core/llm/context-probe.js";
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

  it("reads past a named pipe in its place instead of waiting on it for good", async () => {
    const dir = await tempDir();
    execFileSync("mkfifo", [path.join(dir, "context-windows.json")]);
    expect(new ContextWindowCache(dir).get("http://a/v1", "m")).toBeUndefined();
  });
});

describe("a remembered window that cannot be true", () => {
  it("is not used: a planted 999,999,999,999 tokens reads as nothing remembered", async () => {
    const cache = new ContextWindowCache(await tempDir("mcpterm-window-cache-"));
    cache.set("http://x/v1", "m", { tokens: 999_999_999_999, source: "server", detail: "planted" });
    expect(cache.get("http://x/v1", "m")).toBeUndefined();
    cache.set("http://x/v1", "m", { tokens: 131_072, source: "server", detail: "reported" });
    expect(cache.get("http://x/v1", "m")?.tokens).toBe(131_072);
  });
});

describe("what counts as the endpoint's answer (askContextWindow)", () => {
  const serve = async (
    status: number,
    body: string,
  ): Promise<{ url: string; close: () => Promise<void> }> => {
    const { createServer } = await import("node:http");
    const server = createServer((_req, res) =>
      res.writeHead(status, { "content-type": "application/json" }).end(body),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/v1`,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  };

  it.each([
    [503, '{"error":"loading model"}'],
    [401, '{"error":"bad key"}'],
    [404, "not found"],
  ])("an HTTP %i listing is no answer, so nothing is remembered", async (status, body) => {
    const endpoint = await serve(status, body);
    try {
      const asked = await askContextWindow({ baseUrl: endpoint.url, model: "m", apiKey: undefined });
      expect(asked.answered).toBe(false);
    } finally {
      await endpoint.close();
    }
  });

  it("a listing without the window is the endpoint's answer that it reports none", async () => {
    const endpoint = await serve(200, '{"data":[{"id":"m"}]}');
    try {
      const asked = await askContextWindow({ baseUrl: endpoint.url, model: "m", apiKey: undefined });
      expect(asked).toMatchObject({ answered: true, window: { source: "default" } });
    } finally {
      await endpoint.close();
    }
  });
});
