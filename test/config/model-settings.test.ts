import { describe, expect, it } from "vitest";
import { emptyConfig, type McptermConfig } from "../../src/core/config/config-types.js";
import { resolveModelSettings, type ModelSettingsInput } from "../../src/core/config/model-settings.js";
import { ConfigError } from "../../src/core/errors.js";

function configWith(model: McptermConfig["model"]): McptermConfig {
  return { ...emptyConfig(), path: "/project/mcp.config.json", model };
}

function input(partial: Partial<ModelSettingsInput>): ModelSettingsInput {
  return { flags: {}, env: {}, config: emptyConfig(), ...partial };
}

describe("resolveModelSettings", () => {
  it.each<
    [
      string,
      Partial<ModelSettingsInput>,
      { model: string; baseUrl: string | undefined; apiKey: string | undefined },
    ]
  >([
    [
      "flags beat env and config",
      {
        flags: { model: "flag-model", baseUrl: "http://flag/v1", apiKey: "flag-key" },
        env: { MCPTERM_MODEL: "env-model", OPENAI_BASE_URL: "http://env/v1", OPENAI_API_KEY: "env-key" },
        config: configWith({ name: "config-model", baseUrl: "http://config/v1" }),
      },
      { model: "flag-model", baseUrl: "http://flag/v1", apiKey: "flag-key" },
    ],
    [
      "env beats config",
      {
        env: { MCPTERM_MODEL: "env-model", OPENAI_BASE_URL: "http://env/v1" },
        config: configWith({ name: "config-model", baseUrl: "http://config/v1" }),
      },
      { model: "env-model", baseUrl: "http://env/v1", apiKey: undefined },
    ],
    [
      "config is used when nothing else is set",
      { config: configWith({ name: "config-model", baseUrl: "http://localhost:11434/v1" }) },
      { model: "config-model", baseUrl: "http://localhost:11434/v1", apiKey: undefined },
    ],
    [
      "ARK_* variables are aliases",
      {
        env: { MCPTERM_MODEL: "doubao", ARK_BASE_URL: "https://ark.example/api/v3", ARK_API_KEY: "ark-key" },
      },
      { model: "doubao", baseUrl: "https://ark.example/api/v3", apiKey: "ark-key" },
    ],
    [
      "OPENAI_* wins over ARK_*",
      {
        env: {
          MCPTERM_MODEL: "m",
          OPENAI_BASE_URL: "http://openai/v1",
          ARK_BASE_URL: "http://ark/v1",
          OPENAI_API_KEY: "openai-key",
          ARK_API_KEY: "ark-key",
        },
      },
      { model: "m", baseUrl: "http://openai/v1", apiKey: "openai-key" },
    ],
    [
      "no base URL means api.openai.com, with a key",
      { env: { MCPTERM_MODEL: "gpt-4o-mini", OPENAI_API_KEY: "sk" } },
      { model: "gpt-4o-mini", baseUrl: undefined, apiKey: "sk" },
    ],
    [
      "whitespace is trimmed and blank values count as unset",
      {
        flags: { model: "  qwen3  ", apiKey: " " },
        env: { OPENAI_BASE_URL: "   ", ARK_BASE_URL: " http://ark/v1\n", OPENAI_API_KEY: "" },
      },
      { model: "qwen3", baseUrl: "http://ark/v1", apiKey: undefined },
    ],
  ])("%s", (_name, partial, expected) => {
    expect(resolveModelSettings(input(partial))).toMatchObject(expected);
  });

  it.each([
    [
      { flags: { model: "m", baseUrl: "http://flag/v1" }, config: configWith({ baseUrl: "http://cfg/v1" }) },
      false,
    ],
    [
      {
        flags: { model: "m" },
        env: { OPENAI_BASE_URL: "http://env/v1" },
        config: configWith({ baseUrl: "http://cfg/v1" }),
      },
      false,
    ],
    [{ flags: { model: "m" }, config: configWith({ baseUrl: "http://cfg/v1" }) }, true],
  ])("says whether the endpoint came from the project's config: %j", (partial, fromConfig) => {
    expect(resolveModelSettings(input(partial)).baseUrlFromConfig).toBe(fromConfig);
  });

  it.each([
    ["a line break inside", "sk-abc\ndef"],
    ["a curly quote copied with it", "sk-abc\u2019def"],
    ["a control character", "sk-abc\u0007def"],
    ["DEL", "sk-abc\u007fdef"],
  ])("refuses a key with %s, which no HTTP header can carry, naming where it came from", (_case, key) => {
    const settings = () =>
      resolveModelSettings(input({ flags: { model: "m" }, env: { OPENAI_API_KEY: key } }));
    expect(settings).toThrow(ConfigError);
    expect(settings).toThrow(/^OPENAI_API_KEY holds a character an HTTP header cannot carry/);
  });

  it.each([
    ["a tab", "sk-abc\tdef"],
    ["a Latin-1 letter", "sk-abc\u00e9def"],
    ["a space", "sk abc"],
  ])("takes a key with %s inside, which a header carries", (_case, key) => {
    expect(resolveModelSettings(input({ flags: { model: "m" }, env: { OPENAI_API_KEY: key } })).apiKey).toBe(
      key,
    );
  });

  it("takes a key with surrounding spaces or a trailing line break, trimmed", () => {
    const settings = resolveModelSettings(
      input({ flags: { model: "m" }, env: { OPENAI_API_KEY: " sk-abc\n" } }),
    );
    expect(settings.apiKey).toBe("sk-abc");
  });

  it("names where the key came from", () => {
    expect(
      resolveModelSettings(input({ flags: { model: "m" }, env: { ARK_API_KEY: "k".repeat(20) } }))
        .apiKeySource,
    ).toBe("ARK_API_KEY");
  });

  it.each<[string, Partial<ModelSettingsInput>, string]>([
    [
      "no model anywhere",
      { env: { OPENAI_API_KEY: "sk" } },
      "No model is set; pass --model <name> or set MCPTERM_MODEL (or model.name in mcp.config.json), and point --base-url or OPENAI_BASE_URL at any OpenAI-compatible endpoint, local ones such as Ollama, llama.cpp or vLLM included.",
    ],
    [
      "no base URL and no API key",
      { flags: { model: "gpt-4o-mini" } },
      "No API key is set for api.openai.com; set OPENAI_API_KEY (or ARK_API_KEY) or pass --api-key, or point --base-url or OPENAI_BASE_URL at another OpenAI-compatible endpoint such as a local Ollama, llama.cpp or vLLM server, where a key is optional.",
    ],
    [
      "a bad --base-url",
      { flags: { model: "m", baseUrl: "localhost:11434" } },
      '--base-url must be an http(s) URL such as http://localhost:11434/v1, got "localhost:11434".',
    ],
    [
      "a bad OPENAI_BASE_URL",
      { flags: { model: "m" }, env: { OPENAI_BASE_URL: "ftp://example.com" } },
      'OPENAI_BASE_URL must be an http(s) URL such as http://localhost:11434/v1, got "ftp://example.com".',
    ],
    [
      "a bad ARK_BASE_URL",
      { flags: { model: "m" }, env: { ARK_BASE_URL: "nope" } },
      'ARK_BASE_URL must be an http(s) URL such as http://localhost:11434/v1, got "nope".',
    ],
    [
      "a bad model.baseUrl in the config file",
      { config: configWith({ name: "m", baseUrl: "not a url" }) },
      '/project/mcp.config.json: model.baseUrl must be an http(s) URL such as http://localhost:11434/v1, got "not a url".',
    ],
    [
      "a user name and password in --base-url, which fetch cannot send",
      { flags: { model: "m", baseUrl: "https://me:hunter2-Zq8@llm.example/v1" } },
      "--base-url holds a user name or password, which fetch refuses to send; remove it from the URL and give the key as OPENAI_API_KEY or --api-key (sent as a Bearer token).",
    ],
    [
      "a password alone in OPENAI_BASE_URL",
      { flags: { model: "m" }, env: { OPENAI_BASE_URL: "http://:hunter2-Zq8@127.0.0.1:8080/v1" } },
      "OPENAI_BASE_URL holds a user name or password, which fetch refuses to send; remove it from the URL and give the key as OPENAI_API_KEY or --api-key (sent as a Bearer token).",
    ],
  ])("throws ConfigError for %s", (_name, partial, message) => {
    expect(() => resolveModelSettings(input(partial))).toThrow(new ConfigError(message));
    expect(() => resolveModelSettings(input(partial))).toThrow(ConfigError);
  });
});
