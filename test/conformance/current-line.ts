/**
 * The 48 client scenarios of the conformance suite's current line (0.2.0-alpha.12) and what
 * mcpterm must report in each, at the scenario's own default revision. The suite's verdict counts
 * a check short of SUCCESS (WARNING included), a timeout or a refused exit code as a failure.
 */
export type Expectation =
  /** The runner's verdict is PASSED, nothing is short of SUCCESS, and these checks succeeded. */
  | { kind: "passes"; checks: readonly string[] }
  /** Only SKIPPED checks: the scenario tests a feature mcpterm does not have, and never touches. */
  | { kind: "scores nothing"; why: string }
  /** Fails today, for `reason`; the test fails when it starts passing, so this list only shrinks. */
  | { kind: "left"; reason: string; checks: readonly string[] };

export interface ScenarioExpectation {
  scenario: string;
  /** Runs the scenario at this revision rather than its default (`--spec-version`). */
  specVersion?: string;
  expect: Expectation;
}

const passes = (...checks: string[]): Expectation => ({ kind: "passes", checks });

const SCHEMA_ECHO = [
  "json-schema-2020-12-client-tool-found",
  "json-schema-2020-12-client-echo-completed",
  "json-schema-2020-12-client-$schema-preserved",
  "json-schema-2020-12-client-$defs-preserved",
  "json-schema-2020-12-client-additionalProperties-preserved",
  "wire-schema-valid",
];
const SIGNED_IN = ["token-request", "valid-bearer-token"];
const METADATA = ["authorization-server-metadata", "client-registration", ...SIGNED_IN];
const RESOURCE = ["resource-parameter-in-token", "resource-parameter-matches-prm"];

/**
 * The four skills scenarios (SEP-2640, extension io.modelcontextprotocol/skills) score a check
 * only once the client calls skills/list; a client without skills (mcpterm, and the suite's own
 * reference client) gets one SKIPPED line each. They are run to prove mcpterm never calls
 * skills/list nor prefetches a resource, but they are not counted among the scenarios that pass.
 */
const SKILLS =
  "skills (SEP-2640) are an extension mcpterm does not implement; only skills/list would be scored";

export const CURRENT_LINE: readonly ScenarioExpectation[] = [
  { scenario: "initialize", expect: passes("mcp-client-initialization") },
  { scenario: "tools_call", expect: passes("tool-add-numbers", "wire-schema-valid") },
  {
    scenario: "elicitation-sep1034-client-defaults",
    expect: passes(
      ...["string", "integer", "number", "enum", "boolean"].map(
        (kind) => `client-elicitation-sep1034-${kind}-default`,
      ),
    ),
  },
  {
    scenario: "sse-retry",
    expect: passes("client-sse-graceful-reconnect", "client-sse-retry-timing", "client-sse-last-event-id"),
  },
  {
    scenario: "request-metadata",
    expect: passes(
      "sep-2575-http-client-sends-version-header",
      "sep-2575-client-populates-meta",
      "sep-2575-client-sends-client-info",
      "sep-2575-http-version-header-matches-meta",
      "sep-2575-client-declares-roots-capability",
      "sep-2575-client-declares-sampling-capability",
      "sep-2575-client-declares-elicitation-capability",
      "sep-2575-client-retry-supported-version",
    ),
  },
  { scenario: "auth/metadata-default", expect: passes(...METADATA, ...RESOURCE) },
  { scenario: "auth/metadata-var1", expect: passes(...METADATA, ...RESOURCE) },
  { scenario: "auth/metadata-var2", expect: passes(...METADATA, ...RESOURCE) },
  { scenario: "auth/metadata-var3", expect: passes(...METADATA, ...RESOURCE) },
  { scenario: "auth/basic-cimd", expect: passes("cimd-client-id-used", ...SIGNED_IN) },
  {
    scenario: "auth/scope-from-www-authenticate",
    expect: passes("scope-from-www-authenticate", ...SIGNED_IN),
  },
  {
    scenario: "auth/scope-from-scopes-supported",
    expect: passes("scope-from-scopes-supported", ...SIGNED_IN),
  },
  {
    scenario: "auth/scope-omitted-when-undefined",
    expect: passes("scope-omitted-when-undefined", ...SIGNED_IN),
  },
  { scenario: "auth/scope-step-up", expect: passes("scope-step-up-initial", "scope-step-up-escalation") },
  { scenario: "auth/scope-retry-limit", expect: passes("scope-retry-limit") },
  ...["basic", "post", "none"].map((method) => ({
    scenario: `auth/token-endpoint-auth-${method}`,
    expect: passes("token-endpoint-auth-method", ...SIGNED_IN, ...RESOURCE),
  })),
  { scenario: "auth/pre-registration", expect: passes("pre-registration-auth", ...SIGNED_IN) },
  {
    scenario: "auth/2025-03-26-oauth-metadata-backcompat",
    expect: passes("authorization-server-metadata", ...SIGNED_IN),
  },
  {
    scenario: "auth/2025-03-26-oauth-endpoint-fallback",
    expect: passes("authorization-request", ...SIGNED_IN),
  },
  { scenario: "auth/resource-mismatch", expect: passes("resource-mismatch-rejected") },
  { scenario: "auth/offline-access-scope", expect: passes(...SIGNED_IN) },
  {
    scenario: "auth/offline-access-not-supported",
    expect: passes("sep-837-application-type-present", "sep-2207-offline-access-not-requested", ...SIGNED_IN),
  },
  {
    scenario: "auth/authorization-server-migration",
    expect: passes(
      "sep-2352-reregister-on-as-change",
      "sep-2352-no-reuse-on-as-change",
      "sep-2352-no-cross-as-credential-reuse",
    ),
  },
  {
    scenario: "auth/iss-supported",
    expect: passes("sep-2468-client-compare-iss-supported", ...SIGNED_IN),
  },
  { scenario: "auth/iss-not-advertised", expect: passes("sep-2468-client-proceed-no-iss", ...SIGNED_IN) },
  { scenario: "auth/iss-supported-missing", expect: passes("sep-2468-client-reject-missing-iss") },
  { scenario: "auth/iss-wrong-issuer", expect: passes("sep-2468-client-compare-iss-supported") },
  { scenario: "auth/iss-unexpected", expect: passes("sep-2468-client-compare-iss-unadvertised") },
  { scenario: "auth/iss-normalized", expect: passes("sep-2468-client-no-normalization") },
  {
    scenario: "auth/metadata-issuer-mismatch",
    expect: passes("sep-2468-client-validate-metadata-issuer"),
  },
  {
    scenario: "auth/client-credentials-jwt",
    expect: passes("client-credentials-jwt-verified", ...SIGNED_IN),
  },
  {
    scenario: "auth/client-credentials-basic",
    expect: passes("client-credentials-basic-auth", ...SIGNED_IN),
  },
  {
    scenario: "auth/enterprise-managed-authorization",
    expect: passes("complete-flow-token-exchange", "complete-flow-jwt-bearer", ...SIGNED_IN),
  },
  {
    scenario: "auth/dpop",
    expect: passes(
      "sep-1932-client-token-request-proof",
      "sep-1932-client-dpop-auth-scheme",
      "sep-1932-client-fresh-proof",
    ),
  },
  {
    scenario: "auth/dpop-nonce",
    expect: passes("sep-1932-client-as-nonce", "sep-1932-client-rs-nonce"),
  },
  { scenario: "auth/wif-jwt-bearer", expect: passes("wif-assertion-verified", ...SIGNED_IN) },
  {
    scenario: "sep-2322-client-request-state",
    expect: passes(
      "sep-2322-client-request-state-echoed",
      "sep-2322-client-jsonrpc-id-different",
      "sep-2322-client-no-state-omitted",
      "sep-2322-client-parallel-isolation",
      "sep-2322-default-result-type-complete",
    ),
  },
  { scenario: "http-standard-headers", expect: passes("sep-2243-client-includes-standard-headers") },
  {
    scenario: "http-custom-headers",
    expect: passes(
      "sep-2243-client-supports-custom-headers",
      "sep-2243-client-mirrors-designated-params",
      "sep-2243-client-encode-values",
      "sep-2243-client-base64-unsafe",
      "sep-2243-client-omit-null",
    ),
  },
  {
    scenario: "http-invalid-tool-headers",
    expect: passes(
      "sep-2243-client-reject-invalid-tool",
      "sep-2243-x-mcp-header-not-empty",
      "sep-2243-x-mcp-header-primitive-only",
      "sep-2243-x-mcp-header-unique",
      "sep-2243-x-mcp-header-charset",
    ),
  },
  { scenario: "json-schema-ref-no-deref", expect: passes("sep-2106-no-network-ref-deref") },
  // At its default revision (2025-11-25) the three SEP-2106 keyword checks are SKIPPED.
  { scenario: "json-schema-2020-12-preservation", expect: passes(...SCHEMA_ECHO) },
  ...["no-prefetch", "verify-digest", "verify-size", "verify-frontmatter"].map((name) => ({
    scenario: `sep-2640-client-${name}`,
    expect: { kind: "scores nothing", why: SKILLS } as const,
  })),
];

/**
 * The scenarios that span both eras, run once more at 2026-07-28 (the runner's stateless 2026
 * mock), so the 2026 wire is proven beside the 2025 one.
 */
export const AT_2026: readonly ScenarioExpectation[] = [
  // Authorization on the 2026 wire: registration says application_type (SEP-837), a
  // pre-registered client still signs in, and a step-up asks for the union of scopes (SEP-2350).
  {
    scenario: "auth/metadata-default",
    specVersion: "2026-07-28",
    expect: passes(...METADATA, ...RESOURCE, "sep-837-application-type-present"),
  },
  {
    scenario: "auth/pre-registration",
    specVersion: "2026-07-28",
    expect: passes("pre-registration-auth", ...SIGNED_IN),
  },
  {
    scenario: "auth/scope-step-up",
    specVersion: "2026-07-28",
    expect: passes(
      "scope-step-up-escalation",
      "sep-2350-scope-union-on-reauth",
      "sep-837-application-type-present",
    ),
  },
  {
    scenario: "tools_call",
    specVersion: "2026-07-28",
    expect: passes("tool-add-numbers", "wire-schema-valid"),
  },
  {
    scenario: "json-schema-2020-12-preservation",
    specVersion: "2026-07-28",
    expect: passes(
      ...SCHEMA_ECHO,
      "sep-2106-client-composition-keywords-preserved",
      "sep-2106-client-conditional-keywords-preserved",
      "sep-2106-client-anchor-keyword-preserved",
    ),
  },
];
