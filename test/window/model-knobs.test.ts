import { afterAll, describe, expect, it } from "vitest";
import { parseConfigDocument } from "../../src/core/config/config-schema.js";
import { emptyConfig } from "../../src/core/config/config-types.js";
import { resolveModelSettings } from "../../src/core/config/model-settings.js";
import { ConfigError } from "../../src/core/errors.js";
import { probeContextWindow } from "../../src/core/llm/context-probe.js";
import { createOpenAiChatModel } from "../../src/core/llm/openai-chat-model.js";
import { collect } from "../llm/helpers.js";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedServerOptions,
} from "../support/scripted-model-server.js";

const servers: ScriptedModelServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function server(options: ScriptedServerOptions = {}): Promise<ScriptedModelServer> {
  const started = await startScriptedModelServer(() => ({ text: "ok" }), options);
  servers.push(started);
  return started;
}

const base = { flags: { model: "m", baseUrl: "http://127.0.0.1:1/v1" }, env: {}, config: emptyConfig() };

describe("model.temperature, model.maxTokens and model.contextWindow", () => {
  it("take flags over the environment over the config file", () => {
    const config = parseConfigDocument(
      { model: { temperature: 0.7, maxTokens: 900, contextWindow: 16_384 } },
      { fileLabel: "mcp.config.json", configDir: "/p", env: {} },
    );
    expect(resolveModelSettings({ ...base, config })).toMatchObject({
      temperature: 0.7,
      maxTokens: 900,
      contextWindow: 16_384,
    });
    const env = { MCPTERM_TEMPERATURE: "0.3", MCPTERM_MAX_TOKENS: "500", MCPTERM_CONTEXT_WINDOW: "8192" };
    expect(resolveModelSettings({ ...base, env, config })).toMatchObject({
      temperature: 0.3,
      maxTokens: 500,
      contextWindow: 8192,
    });
    const flags = { ...base.flags, temperature: 0, maxTokens: 64, contextWindow: 4096 };
    expect(resolveModelSettings({ flags, env, config })).toMatchObject({
      temperature: 0,
      maxTokens: 64,
      contextWindow: 4096,
    });
    expect(resolveModelSettings(base)).not.toHaveProperty("temperature");
  });

  it.each([
    [{ MCPTERM_TEMPERATURE: "hot" }, /MCPTERM_TEMPERATURE must be a number from 0 to 2/],
    [{ MCPTERM_TEMPERATURE: "3" }, /MCPTERM_TEMPERATURE must be a number from 0 to 2/],
    [{ MCPTERM_MAX_TOKENS: "1.5" }, /MCPTERM_MAX_TOKENS must be a whole number of tokens/],
    [{ MCPTERM_CONTEXT_WINDOW: "0" }, /MCPTERM_CONTEXT_WINDOW must be a whole number of tokens/],
    // JavaScript's Number() reads these; a person did not mean 16, 1000 or 0.
    [{ MCPTERM_MAX_TOKENS: "0x10" }, /MCPTERM_MAX_TOKENS must be a whole number of tokens.*got "0x10"/],
    [{ MCPTERM_CONTEXT_WINDOW: "1e4" }, /MCPTERM_CONTEXT_WINDOW must be a whole number of tokens/],
    [{ MCPTERM_TEMPERATURE: "0b1" }, /MCPTERM_TEMPERATURE must be a number from 0 to 2/],
    [
      { MCPTERM_CONTEXT_WINDOW: "4096", MCPTERM_MAX_TOKENS: "4096" },
      /must be smaller than the context window/,
    ],
  ])("refuses %j in one sentence", (env, message) => {
    expect(() => resolveModelSettings({ ...base, env })).toThrow(ConfigError);
    expect(() => resolveModelSettings({ ...base, env })).toThrow(message);
  });

  it("rejects a config value of the wrong kind, naming the key", () => {
    const parse = (model: unknown) =>
      parseConfigDocument({ model }, { fileLabel: "mcp.config.json", configDir: "/p", env: {} });
    expect(() => parse({ temperature: "warm" })).toThrow(
      "mcp.config.json: model.temperature must be a number from 0 to 2, got a string.",
    );
    expect(() => parse({ pricing: { inputPerMillion: 1 } })).toThrow(
      /model.pricing needs inputPerMillion and outputPerMillion/,
    );
    expect(parse({ pricing: { inputPerMillion: 2.5, outputPerMillion: 10 } }).model.pricing).toEqual({
      inputPerMillion: 2.5,
      outputPerMillion: 10,
      currency: "USD",
    });
  });

  it("sends temperature and max_tokens when they are set, and neither when they are not", async () => {
    const model = await server();
    await collect(
      createOpenAiChatModel({
        model: "m",
        baseUrl: model.baseUrl,
        apiKey: undefined,
        temperature: 0.2,
        maxTokens: 300,
      }),
    );
    await collect(createOpenAiChatModel({ model: "m", baseUrl: model.baseUrl, apiKey: undefined }));
    const [set, unset] = model.requests.map((request) => request.body as Record<string, unknown>);
    expect(set).toMatchObject({ temperature: 0.2, max_tokens: 300 });
    expect(unset).not.toHaveProperty("temperature");
    expect(unset).not.toHaveProperty("max_tokens");
  });
});

describe("the context window a server reports", () => {
  const probe = async (options: ScriptedServerOptions, model = "m") => {
    const started = await server(options);
    return probeContextWindow({ baseUrl: started.baseUrl, model, apiKey: undefined });
  };

  it("reads llama.cpp's running n_ctx from /props over the training size in /v1/models", async () => {
    const models = { data: [{ id: "m", owned_by: "llamacpp", meta: { n_ctx_train: 131_072 } }] };
    expect(
      await probe({ models, routes: { "/props": { default_generation_settings: { n_ctx: 8192 } } } }),
    ).toMatchObject({
      tokens: 8192,
      source: "server",
    });
    expect(await probe({ models })).toMatchObject({
      tokens: 131_072,
      detail: "llama.cpp GET /v1/models (meta.n_ctx_train)",
    });
  });

  it("reads vLLM's max_model_len, LM Studio's loaded_context_length and Ollama's /api/ps", async () => {
    expect(
      await probe({ models: { data: [{ id: "m", owned_by: "vllm", max_model_len: 4096 }] } }),
    ).toMatchObject({ tokens: 4096 });
    expect(
      await probe({
        models: { data: [{ id: "m", owned_by: "organization_owner" }] },
        routes: {
          "/api/v0/models/m": { id: "m", max_context_length: 32_768, loaded_context_length: 12_000 },
        },
      }),
    ).toMatchObject({ tokens: 12_000, detail: "LM Studio GET /api/v0/models (loaded_context_length)" });
    expect(
      await probe(
        {
          models: { data: [{ id: "qwen2.5:7b", owned_by: "library" }] },
          routes: { "/api/ps": { models: [{ name: "qwen2.5:7b", context_length: 4096 }] } },
        },
        "qwen2.5:7b",
      ),
    ).toMatchObject({ tokens: 4096, detail: "Ollama GET /api/ps (context_length)" });
  });

  it("falls back to the documented default when the server says nothing (api.openai.com) or is not there", async () => {
    expect(await probe({ models: { data: [{ id: "m", owned_by: "openai" }] } })).toMatchObject({
      tokens: 32_768,
      source: "default",
    });
    expect(await probe({})).toMatchObject({ tokens: 32_768, source: "default" });
    expect(
      await probeContextWindow({ baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKey: undefined }),
    ).toMatchObject({ source: "default" });
  });
});

describe("token counts from the API", () => {
  it("reads the cached part of the prompt from a usage chunk that has no choices, as llama.cpp and vLLM send it", async () => {
    const started = await startScriptedModelServer([
      {
        text: "hi",
        usage: { prompt_tokens: 900, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 640 } },
      },
    ]);
    servers.push(started);
    const events = await collect(
      createOpenAiChatModel({ model: "m", baseUrl: started.baseUrl, apiKey: undefined }),
    );
    expect(events.at(-1)).toMatchObject({
      type: "done",
      usage: { promptTokens: 900, completionTokens: 3, totalTokens: 903, cachedTokens: 640 },
    });
  });
});
