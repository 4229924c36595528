import { describe, expect, it } from "vitest";
import { configSecrets } from "../../src/core/config/config-secrets.js";
import { parseConfigDocument } from "../../src/core/config/config-schema.js";
import { emptyConfig } from "../../src/core/config/index.js";
import { defaultServerConfig } from "../../src/core/config/ad-hoc-server.js";

const withHeaders = (headers: Record<string, string>) => ({
  ...emptyConfig(),
  servers: [{ ...defaultServerConfig("remote"), transport: "http" as const, url: "https://h/mcp", headers }],
});
const basic = (pair: string): string => `Basic ${Buffer.from(pair).toString("base64")}`;

describe("configSecrets", () => {
  it("knows a Basic header's decoded password, and a token given as the user name alone", () => {
    expect(configSecrets(withHeaders({ Authorization: basic("alice:TopSecretPw99") }))).toEqual(
      expect.arrayContaining(["alice:TopSecretPw99", "TopSecretPw99"]),
    );
    const token = "ghp_Hw8Zq3Nc6Vb1Xm4Ls7Kd0Pf2Rt5Yu9Je";
    expect(configSecrets(withHeaders({ Authorization: basic(`${token}:`) }))).toContain(token);
    // A user name beside a password is not taken for a secret.
    expect(configSecrets(withHeaders({ Authorization: basic("developer:TopSecretPw99") }))).not.toContain(
      "developer",
    );
  });
});

describe("values from the environment a URL carries", () => {
  const env = {
    MYKEY: "qqVALUEqq98765",
    ZAP_PATH: "zapSECRETpath123",
    HOST: "mcp.example.com",
    PORT: "8443",
    SHORT: "abc",
    PASS: "p@ss/word-99",
  };
  const secretsOf = (url: string): string[] =>
    configSecrets(
      parseConfigDocument(
        { mcpServers: { remote: { url } } },
        { fileLabel: "mcp.config.json", configDir: "/p", env },
      ),
    );

  it("are secrets in the query, the path, the fragment and the user information, whatever their names", () => {
    expect(secretsOf("https://${HOST}:${PORT}/mcp/${ZAP_PATH}/sse?k=${MYKEY}#${SHORT}")).toEqual([
      "zapSECRETpath123",
      "qqVALUEqq98765",
    ]);
    expect(secretsOf("https://me:${PASS}@${HOST}/mcp")).toContain("p@ss/word-99");
  });

  it("are not where they name the host or are too short to redact, nor in a URL that is one variable", () => {
    expect(secretsOf("https://${HOST}/mcp?v=${SHORT}")).toEqual([]);
    expect(secretsOf("${URL:-https://h/mcp}")).toEqual([]);
  });
});
