import { describe, it } from "vitest";
import { runScenario, shortOfSuccess } from "./conformance-runner.js";

const SIGNED_IN = ["token-request", "valid-bearer-token"];
const METADATA = ["authorization-server-metadata", "client-registration", ...SIGNED_IN];

/**
 * The authorization scenarios of the 2025-11-25 suite (0.1.16), each with checks that must
 * succeed; nothing may be short of SUCCESS (the suite reports an expected check that never came
 * as a FAILURE). `auth/resource-mismatch` wants the client to refuse, so its adapter exits
 * non-zero there. The service-account scenarios: the adapter reads the issuer off the metadata,
 * as the person who registered the account would know it.
 *
 * One is refused on purpose: this suite version's 2025-03-26 metadata scenario serves, at the
 * server's root, authorization server metadata whose `issuer` is another URL (`…/oauth`).
 * RFC 8414 §3.3 (and MCP 2026-07-28) says a client must not use such metadata, and the v2 SDK
 * refuses it; the current line's copy of the scenario serves a matching issuer and passes.
 */
const AUTH_SCENARIOS: ReadonlyArray<{ scenario: string; checks: string[] }> = [
  ...["metadata-default", "metadata-var1", "metadata-var2", "metadata-var3"].map((name) => ({
    scenario: `auth/${name}`,
    checks: METADATA,
  })),
  { scenario: "auth/basic-cimd", checks: ["cimd-client-id-used", ...SIGNED_IN] },
  { scenario: "auth/scope-from-www-authenticate", checks: ["scope-from-www-authenticate", ...SIGNED_IN] },
  { scenario: "auth/scope-from-scopes-supported", checks: ["scope-from-scopes-supported", ...SIGNED_IN] },
  { scenario: "auth/scope-omitted-when-undefined", checks: ["scope-omitted-when-undefined", ...SIGNED_IN] },
  { scenario: "auth/scope-step-up", checks: ["scope-step-up-initial", "scope-step-up-escalation"] },
  { scenario: "auth/scope-retry-limit", checks: ["scope-retry-limit"] },
  ...["basic", "post", "none"].map((method) => ({
    scenario: `auth/token-endpoint-auth-${method}`,
    checks: ["token-endpoint-auth-method", ...SIGNED_IN],
  })),
  { scenario: "auth/pre-registration", checks: ["pre-registration-auth", ...SIGNED_IN] },
  { scenario: "auth/2025-03-26-oauth-endpoint-fallback", checks: ["authorization-request", ...SIGNED_IN] },
  { scenario: "auth/resource-mismatch", checks: ["resource-mismatch-rejected"] },
  { scenario: "auth/offline-access-scope", checks: ["sep-2207-offline-access-requested", ...SIGNED_IN] },
  {
    scenario: "auth/offline-access-not-supported",
    checks: ["sep-2207-offline-access-not-requested", ...SIGNED_IN],
  },
  { scenario: "auth/client-credentials-jwt", checks: ["client-credentials-jwt-verified", ...SIGNED_IN] },
  { scenario: "auth/client-credentials-basic", checks: ["client-credentials-basic-auth", ...SIGNED_IN] },
  {
    scenario: "auth/cross-app-access-complete-flow",
    checks: ["complete-flow-token-exchange", "complete-flow-jwt-bearer", ...SIGNED_IN],
  },
];

describe("the 2025-11-25 conformance suite (0.1.16): authorization scenarios, mcpterm signing in", () => {
  it.concurrent.for(AUTH_SCENARIOS)(
    "$scenario: every check passes",
    { timeout: 60_000 },
    async (expected, { expect }) => {
      const { checks, output } = await runScenario(expected.scenario, { suite: "2025" });
      const { notPassed, report } = shortOfSuccess(checks, output);
      expect(notPassed, report).toEqual([]);
      const succeeded = new Set(
        checks.filter((check) => check.status === "SUCCESS").map((check) => check.id),
      );
      expect(
        expected.checks.filter((id) => !succeeded.has(id)),
        report,
      ).toEqual([]);
    },
  );
});

describe("the 2025-11-25 conformance suite (0.1.16): metadata whose issuer is not its own", () => {
  it("auth/2025-03-26-oauth-metadata-backcompat: refused before anything is registered (RFC 8414 §3.3)", async ({
    expect,
  }) => {
    const { checks, output } = await runScenario("auth/2025-03-26-oauth-metadata-backcompat", {
      suite: "2025",
    });
    const { report } = shortOfSuccess(checks, output);
    expect(output, report).toMatch(/names issuer .* instead, and RFC 8414 requires them to be identical/);
    const succeeded = checks.filter((check) => check.status === "SUCCESS").map((check) => check.id);
    expect(succeeded, report).toEqual(["authorization-server-metadata"]);
  });
});
