import { describe, expect, it } from "vitest";
import { parseConfigDocument } from "../../src/core/config/config-schema.js";
import { emptyConfig } from "../../src/core/config/config-types.js";
import { resolveEmbeddingsSettings } from "../../src/core/config/embeddings-settings.js";

const parse = (kb: unknown) =>
  parseConfigDocument({ kb }, { fileLabel: "mcp.config.json", configDir: "/project", env: {} });

describe("kb.embeddings in mcp.config.json", () => {
  it("reads model and baseUrl", () => {
    const config = parse({ embeddings: { model: "nomic-embed-text", baseUrl: "http://localhost:11434/v1" } });
    expect(config.kb.embeddings).toEqual({ model: "nomic-embed-text", baseUrl: "http://localhost:11434/v1" });
    expect(config.warnings).toEqual([]);
  });

  it("is absent unless configured: nothing is embedded or downloaded", () => {
    expect(parse({ topK: 3 }).kb.embeddings).toBeUndefined();
  });

  it.each([
    [{ embeddings: "yes" }, /kb\.embeddings must be an object/],
    [
      { embeddings: { baseUrl: "http://localhost:11434/v1" } },
      /kb\.embeddings\.model must name the embedding model/,
    ],
    [{ embeddings: { model: "  ", baseUrl: "http://x/v1" } }, /kb\.embeddings\.model must name/],
    [{ embeddings: { model: 3, baseUrl: "http://x/v1" } }, /kb\.embeddings\.model must be a string/],
    [{ embeddings: { model: "m" } }, /kb\.embeddings\.baseUrl must be the http\(s\) URL .* got null/],
    [
      { embeddings: { model: "m", baseUrl: "file:///etc/passwd" } },
      /baseUrl must be the http\(s\) URL .*file:/,
    ],
  ])("%j is refused with a clear sentence", (kb, message) => {
    expect(() => parse(kb)).toThrow(message);
  });

  it("warns about a key it does not know, naming the near miss", () => {
    const config = parse({ embeddings: { model: "m", baseUrl: "http://x/v1", baseURL: "http://y/v1" } });
    expect(config.warnings).toEqual([
      `mcp.config.json: unknown key "baseURL" in kb.embeddings is ignored; did you mean "baseUrl"?`,
    ]);
  });
});

describe("the embeddings endpoint and key", () => {
  const config = (baseUrl: string) => ({
    ...emptyConfig(),
    path: "/project/mcp.config.json",
    kb: { ...emptyConfig().kb, embeddings: { model: "m", baseUrl } },
  });
  const key = (baseUrl: string, env: NodeJS.ProcessEnv) =>
    resolveEmbeddingsSettings(config(baseUrl), env, true).settings?.apiKey;

  it.each<[string, string, NodeJS.ProcessEnv, string | undefined]>([
    [
      "its own variable, to any endpoint",
      "http://embed.example/v1",
      { MCPTERM_EMBEDDINGS_API_KEY: "own", OPENAI_API_KEY: "chat" },
      "own",
    ],
    ["the OpenAI key to OpenAI", "https://api.openai.com/v1", { OPENAI_API_KEY: "chat" }, "chat"],
    [
      "the chat key to the chat model's own endpoint",
      "http://localhost:8000/v1",
      { OPENAI_API_KEY: "chat", OPENAI_BASE_URL: "http://localhost:8000/v1" },
      "chat",
    ],
    [
      "never the chat key to a server the project's config names",
      "https://collector.evil.example/v1",
      { OPENAI_API_KEY: "chat", ARK_API_KEY: "ark" },
      undefined,
    ],
    ["the Ark key to Ark", "https://ark.cn-beijing.volces.com/api/v3", { ARK_API_KEY: "ark" }, "ark"],
  ])("key: %s", (_name, baseUrl, env, expected) => {
    expect(key(baseUrl, env)).toBe(expected);
  });

  it("sends nothing to a server off this machine that an untrusted project config names", () => {
    const resolved = resolveEmbeddingsSettings(config("https://collector.evil.example/v1"), {}, false);
    expect(resolved.settings).toBeUndefined();
    expect(resolved.warning).toBe(
      "Not sending your messages and notes to https://collector.evil.example: kb.embeddings.baseUrl in /project/mcp.config.json names a server off this machine, and the config is not trusted with it; pass --trust-config (or say yes when a session asks about the config), or set MCPTERM_EMBEDDINGS_BASE_URL, to use it. The knowledge base searches by keywords only.",
    );
  });

  it("uses a local endpoint, or one the person set in the environment, without asking", () => {
    expect(resolveEmbeddingsSettings(config("http://127.0.0.1:11434/v1"), {}, false).settings).toEqual({
      model: "m",
      baseUrl: "http://127.0.0.1:11434/v1",
      apiKey: undefined,
    });
    const env = { MCPTERM_EMBEDDINGS_BASE_URL: "https://embed.example/v1", MCPTERM_EMBEDDINGS_MODEL: "e5" };
    expect(
      resolveEmbeddingsSettings(config("https://collector.evil.example/v1"), env, false).settings,
    ).toMatchObject({
      model: "e5",
      baseUrl: "https://embed.example/v1",
    });
  });

  it("refuses an endpoint URL with a user name and password in it, naming where it came from", () => {
    const fromConfig = resolveEmbeddingsSettings(
      config("http://me:hunter2-Zq8@127.0.0.1:11434/v1"),
      {},
      true,
    );
    expect(fromConfig).toEqual({
      settings: undefined,
      warning:
        "kb.embeddings.baseUrl holds a user name or password, which fetch refuses to send; remove it from the URL and give the key as MCPTERM_EMBEDDINGS_API_KEY (sent as a Bearer token); the knowledge base searches by keywords only.",
    });
    const env = { MCPTERM_EMBEDDINGS_BASE_URL: "https://me:hunter2-Zq8@embed.example/v1" };
    expect(resolveEmbeddingsSettings(config("http://127.0.0.1:11434/v1"), env, true).warning).toMatch(
      /^MCPTERM_EMBEDDINGS_BASE_URL holds a user name or password/,
    );
  });

  it("is nothing at all without kb.embeddings or the variables", () => {
    expect(resolveEmbeddingsSettings(emptyConfig(), { OPENAI_API_KEY: "chat" }, true)).toEqual({
      settings: undefined,
      warning: undefined,
    });
  });
});
