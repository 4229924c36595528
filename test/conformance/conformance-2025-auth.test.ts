import { describe, it } from "vitest";
import { runScenario, shortOfSuccess } from "./conformance-runner.js";

/**
 * The authorization scenarios (all 22 of this suite version), each with how many checks it
 * reports SUCCESS when mcpterm signs in as it should; none may report anything short of it.
 * `auth/resource-mismatch` wants the client to refuse, so its adapter exits non-zero there. The
 * service-account scenarios count two more: the adapter reads the issuer off the metadata, as
 * the person who registered the account would know it.
 *
 * One is refused on purpose: this suite version's 2025-03-26 metadata scenario serves, at the
 * server's root, authorization server metadata whose `issuer` is another URL (`…/oauth`).
 * RFC 8414 §3.3 (and MCP 2026-07-28) says a client must not use such metadata, and the v2 SDK
 * refuses it; the current line's copy of the scenario serves a matching issuer and passes.
 */
const AUTH_SCENARIOS: ReadonlyArray<{ scenario: string; successes: number }> = [
  ...["metadata-default", "metadata-var1", "metadata-var2", "metadata-var3", "basic-cimd"].map((name) => ({
    scenario: `auth/${name}`,
    successes: 13,
  })),
  { scenario: "auth/scope-from-www-authenticate", successes: 14 },
  { scenario: "auth/scope-from-scopes-supported", successes: 14 },
  { scenario: "auth/scope-omitted-when-undefined", successes: 14 },
  { scenario: "auth/scope-step-up", successes: 20 },
  { scenario: "auth/scope-retry-limit", successes: 16 },
  { scenario: "auth/token-endpoint-auth-basic", successes: 18 },
  { scenario: "auth/token-endpoint-auth-post", successes: 18 },
  { scenario: "auth/token-endpoint-auth-none", successes: 18 },
  { scenario: "auth/pre-registration", successes: 13 },
  { scenario: "auth/2025-03-26-oauth-endpoint-fallback", successes: 7 },
  { scenario: "auth/resource-mismatch", successes: 3 },
  // 13 with offline_access asked for, which the authorization server lists (SEP-2207).
  { scenario: "auth/offline-access-scope", successes: 13 },
  { scenario: "auth/offline-access-not-supported", successes: 14 },
  { scenario: "auth/client-credentials-jwt", successes: 10 },
  { scenario: "auth/client-credentials-basic", successes: 10 },
  { scenario: "auth/cross-app-access-complete-flow", successes: 11 },
];

describe("the 2025-11-25 conformance suite (0.1.16): authorization scenarios, mcpterm signing in", () => {
  it.concurrent.for(AUTH_SCENARIOS)(
    "$scenario: every check passes",
    { timeout: 60_000 },
    async (expected, { expect }) => {
      const { checks, output } = await runScenario(expected.scenario, { suite: "2025" });
      const { notPassed, report } = shortOfSuccess(checks, output);
      expect(notPassed, report).toEqual([]);
      expect(checks.filter((check) => check.status === "SUCCESS").length, report).toBe(expected.successes);
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
    expect(output, report).toMatch(/Issuer mismatch in authorization server metadata/);
    const succeeded = checks.filter((check) => check.status === "SUCCESS").map((check) => check.id);
    expect(succeeded, report).toEqual(["authorization-server-metadata"]);
  });
});
