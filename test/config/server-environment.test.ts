import { describe, expect, it } from "vitest";
import { serverEnvironment } from "../../src/core/config/server-environment.js";

const parent = {
  PATH: "/usr/bin",
  HOME: "/home/ada",
  USER: "ada",
  LANG: "en_US.UTF-8",
  LC_ALL: "en_US.UTF-8",
  TMPDIR: "/tmp",
  https_proxy: "http://proxy:3128",
  NODE_EXTRA_CA_CERTS: "/etc/ca.pem",
  SystemRoot: "C:\\Windows",
  OPENAI_API_KEY: "sk-secret",
  ARK_API_KEY: "ark-secret",
  GITHUB_TOKEN: "ghp-secret",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  BASH_FUNC_x: "() { echo hi; }",
  UNSET: undefined,
};

describe("serverEnvironment", () => {
  it.each([
    "PATH",
    "HOME",
    "USER",
    "LANG",
    "LC_ALL",
    "TMPDIR",
    "https_proxy",
    "NODE_EXTRA_CA_CERTS",
    "SystemRoot",
  ])("inherits %s", (name) => {
    expect(serverEnvironment(parent, {})[name]).toBe(parent[name as keyof typeof parent]);
  });

  it.each(["OPENAI_API_KEY", "ARK_API_KEY", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "BASH_FUNC_x", "UNSET"])(
    "drops %s",
    (name) => {
      expect(serverEnvironment(parent, {})).not.toHaveProperty(name);
    },
  );

  it("passes what the config names, secrets included, and lets it override inherited values", () => {
    const env = serverEnvironment(parent, {
      GITHUB_TOKEN: "from-config",
      PATH: "/opt/bin",
      LOG_LEVEL: "debug",
    });
    expect(env).toMatchObject({ GITHUB_TOKEN: "from-config", PATH: "/opt/bin", LOG_LEVEL: "debug" });
    expect(env).not.toHaveProperty("OPENAI_API_KEY");
  });
});
