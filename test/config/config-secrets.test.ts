import { describe, expect, it } from "vitest";
import { configSecrets } from "../../src/core/config/config-secrets.js";
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
