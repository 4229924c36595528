import { describe, expect, it } from "vitest";
import { parseConfigDocument } from "../../src/core/config/config-schema.js";
import { resolveModelSettings } from "../../src/core/config/model-settings.js";
import { ConfigError } from "../../src/core/errors.js";

const context = { fileLabel: "mcp.config.json", configDir: "/project", env: {} };
const parse = (model: unknown) => ({
  ...parseConfigDocument({ model }, context),
  path: "/project/mcp.config.json",
});
const resolve = (model: unknown, env: NodeJS.ProcessEnv = {}) =>
  resolveModelSettings({ flags: { model: "m", baseUrl: "http://local/v1" }, env, config: parse(model) });

describe("the model stream's silence limits", () => {
  it("are unset unless configured, so the client's defaults apply", () => {
    const settings = resolve({});
    expect(settings).not.toHaveProperty("idleTimeoutMs");
    expect(settings).not.toHaveProperty("firstTokenTimeoutMs");
  });

  it("come from model.idleTimeoutMs and model.firstTokenTimeoutMs", () => {
    expect(resolve({ idleTimeoutMs: 90_000, firstTokenTimeoutMs: 280_000 })).toMatchObject({
      idleTimeoutMs: 90_000,
      firstTokenTimeoutMs: 280_000,
    });
  });

  it("take the environment over the config file", () => {
    const env = { MCPTERM_MODEL_IDLE_TIMEOUT_MS: " 1500 ", MCPTERM_MODEL_FIRST_TOKEN_TIMEOUT_MS: "" };
    expect(resolve({ idleTimeoutMs: 90_000, firstTokenTimeoutMs: 280_000 }, env)).toMatchObject({
      idleTimeoutMs: 1500,
      firstTokenTimeoutMs: 280_000,
    });
  });

  it.each<[string, unknown, NodeJS.ProcessEnv, string]>([
    [
      "a config value that is not a number",
      { idleTimeoutMs: "60s" },
      {},
      "mcp.config.json: model.idleTimeoutMs must be a positive whole number, got a string.",
    ],
    [
      "a config value of zero",
      { firstTokenTimeoutMs: 0 },
      {},
      "mcp.config.json: model.firstTokenTimeoutMs must be a positive whole number, got 0.",
    ],
    [
      "a config value past Node's own limit",
      { idleTimeoutMs: 600_000 },
      {},
      "/project/mcp.config.json: model.idleTimeoutMs must be a whole number of milliseconds from 1 to 300000 (five minutes of silence is a stream that is gone), got 600000.",
    ],
    [
      "an environment value that is not a whole number",
      {},
      { MCPTERM_MODEL_FIRST_TOKEN_TIMEOUT_MS: "2m" },
      'MCPTERM_MODEL_FIRST_TOKEN_TIMEOUT_MS must be a whole number of milliseconds from 1 to 300000 (five minutes of silence is a stream that is gone), got "2m".',
    ],
  ])("reject %s with one sentence", (_name, model, env, message) => {
    expect(() => resolve(model, env)).toThrow(new ConfigError(message));
  });
});
