import { createServer } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfigDocument } from "../../src/core/config/config-schema.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import type { SignInPerson, SignInQuestion } from "../../src/core/oauth/server-auth.js";
import { OAuthStore } from "../../src/core/oauth/token-store.js";
import { tempDir } from "../support/fixtures.js";
import { listenOnLoopback } from "../support/loopback-http.js";
import {
  browse,
  endless,
  startOAuthWorld,
  type OAuthWorld,
  type OAuthWorldOptions,
} from "../support/oauth-world.js";

/**
 * Authorization servers (and identity providers) that misbehave on purpose, against mcpterm's
 * McpManager: real HTTP on 127.0.0.1, a scripted person, the browser as real HTTP.
 */
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

interface Person extends SignInPerson {
  asked: SignInQuestion[];
}

function person(choice: "open" | "decline" = "open"): Person {
  const asked: SignInQuestion[] = [];
  return {
    asked,
    confirm: (question) => {
      asked.push(question);
      return Promise.resolve(choice);
    },
    waiting: () => () => undefined,
  };
}

async function world(options: OAuthWorldOptions = {}): Promise<OAuthWorld> {
  const started = await startOAuthWorld(options);
  closers.push(() => started.close());
  return started;
}

/** A manager for one remote server entry, started; its sign-ins kept in a fresh store. */
async function started(
  entry: Record<string, unknown>,
  who: SignInPerson | undefined,
  extra: { requestTimeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<McpManager> {
  const config = parseConfigDocument(
    { mcpServers: { secure: entry } },
    { fileLabel: "test", configDir: process.cwd(), env: extra.env ?? {} },
  );
  const manager = new McpManager(config.servers, {
    parentEnv: {},
    oauth: {
      store: new OAuthStore(await tempDir("mcpterm-oauth-")),
      ...(extra.requestTimeoutMs ? { requestTimeoutMs: extra.requestTimeoutMs } : {}),
      learnSecret: () => undefined,
      person: () => who,
      openUrl: async (address) => {
        await browse(address);
      },
    },
  });
  closers.push(() => manager.close());
  await manager.start();
  return manager;
}

describe("an authorization server's metadata", () => {
  it.each([
    ["another server's issuer", () => "https://as.attacker.example"],
    ["its own issuer with a trailing slash added", (own: string) => `${own}/`],
  ])(
    "naming %s is refused before anything is registered or sent (RFC 8414 §3.3)",
    async (_what, issuerClaim) => {
      const hostile = await world({ issuerClaim });
      const signer = person();
      const manager = await started({ url: hostile.mcpUrl }, signer);
      const claimed = issuerClaim(hostile.issuer);
      expect(manager.servers()[0]?.error).toBe(
        `sign-in to "secure" stopped: the authorization server metadata fetched for issuer ${hostile.issuer} names issuer ${JSON.stringify(claimed)} instead, and RFC 8414 requires them to be identical (a defence against mix-up attacks); nothing was sent to it.`,
      );
      expect(hostile.registrations).toBe(0);
      expect(hostile.authorizations).toEqual([]);
      expect(hostile.tokenRequests).toEqual([]);
      expect(signer.asked).toEqual([]);
    },
  );

  it("of a server that names no authorization server (2025-03-26) must name that server's origin as its issuer", async () => {
    const onItsOrigin = await world({ legacyIssuer: (resource) => resource });
    const signer = person();
    const connected = await started({ url: onItsOrigin.mcpUrl }, signer);
    expect(connected.servers()[0]).toMatchObject({ status: "connected" });

    // The issuer a pinned entry trusts, claimed by metadata on the server's own origin: a mix-up.
    const elsewhere = await world({ legacyIssuer: (_resource, authServer) => authServer });
    const refused = await started({ url: elsewhere.mcpUrl }, person());
    expect(refused.servers()[0]?.error).toBe(
      `sign-in to "secure" stopped: the authorization server metadata fetched for issuer ${new URL(elsewhere.mcpUrl).origin}/ names issuer ${JSON.stringify(elsewhere.issuer)} instead, and RFC 8414 requires them to be identical (a defence against mix-up attacks); nothing was sent to it.`,
    );
    expect(elsewhere.registrations).toBe(0);
    expect(elsewhere.tokenRequests).toEqual([]);
  });
});

describe("the sign-in page", () => {
  it("on another host over plain http is refused before the person is asked, as OAuth requests there are", async () => {
    const hostile = await world({ authorizationEndpoint: "http://login.example.com/authorize" });
    // Were it offered, the person would decline: nothing is opened either way.
    const signer = person("decline");
    const manager = await started({ url: hostile.mcpUrl }, signer);
    expect(signer.asked).toEqual([]);
    expect(manager.servers()[0]?.error).toBe(
      'sign-in to "secure" failed at authorization: refusing to offer the sign-in page on login.example.com over plain http, where anyone on the network path could read it and what you type into it; the server\'s OAuth metadata must use https (or add "allowInsecureHttp": true to mcpServers.secure if you trust that network).',
    );
    expect(hostile.tokenRequests).toEqual([]);
  });
});

describe("an answer from an authorization server", () => {
  it("that never ends is read to 4 MB, not until the request's time runs out", async () => {
    const hostile = await world({ tokenEndpoint: "flood" });
    // Time enough to read far more than 4 MB: without the cap the request would run out of it.
    const manager = await started({ url: hostile.mcpUrl }, person(), { requestTimeoutMs: 20_000 });
    expect(manager.servers()[0]?.error).toMatch(
      /^sign-in to "secure" failed at token exchange: 127\.0\.0\.1:\d+ sent an answer larger than 4(\.0)? MB, far more than any OAuth answer needs, and mcpterm stopped reading it$/,
    );
  });
});

/** An identity provider's token endpoint that never answers, or answers without end. */
async function identityProvider(mode: "stall" | "flood"): Promise<string> {
  const server = createServer((_request, response) => {
    if (mode === "flood") endless(response, '{"access_token":"');
  });
  return `${await listenOnLoopback(server, closers)}/token`;
}

/** An enterprise-managed entry (SEP-990) whose ID token goes to `idpTokenEndpoint`. */
function enterprise(hostile: OAuthWorld, idpTokenEndpoint: string): Record<string, unknown> {
  return {
    url: hostile.mcpUrl,
    // Without a limit of its own, a silent identity provider was reported as this running out.
    startupTimeoutMs: 8_000,
    oauth: {
      grant: "enterprise",
      issuer: hostile.issuer,
      clientId: "preset",
      clientSecret: "${AS_SECRET}",
      idpTokenEndpoint,
      idpClientId: "mcpterm-idp",
      idToken: "${IDP_ID_TOKEN}",
    },
  };
}

const ENTERPRISE_ENV = { AS_SECRET: "as-secret-0123456789", IDP_ID_TOKEN: "id-token-0123456789" };

describe("the identity provider of an enterprise-managed sign-in", () => {
  it("that never answers fails on its own limit, naming the identity provider rather than the server", async () => {
    const hostile = await world();
    const idp = await identityProvider("stall");
    const manager = await started(enterprise(hostile, idp), undefined, {
      requestTimeoutMs: 1_000,
      env: ENTERPRISE_ENV,
    });
    expect(manager.servers()[0]?.error).toBe(
      `the identity provider ${new URL(idp).host} did not answer within 1 s`,
    );
    expect(hostile.tokenRequests).toEqual([]);
  });

  it("that answers without end is read to 4 MB", async () => {
    const hostile = await world();
    const idp = await identityProvider("flood");
    const manager = await started(enterprise(hostile, idp), undefined, { env: ENTERPRISE_ENV });
    expect(manager.servers()[0]?.error).toMatch(
      /^the identity provider 127\.0\.0\.1:\d+ sent an answer larger than 4(\.0)? MB, far more than any OAuth answer needs, and mcpterm stopped reading it$/,
    );
  });
});
describe("the issuer an authorization response names (RFC 9207)", () => {
  const refusedSentence = (what: string, issuer: string): string =>
    `sign-in to "secure" stopped: the browser came back ${what} (RFC 9207, a defence against mix-up attacks), so the code was not redeemed at ${issuer}; try again, and if it repeats, check what stands between your browser and that server.`;
  const ANOTHER = "naming another authorization server as its issuer";

  it.each([
    ["advertised and given", true, (own: string) => own],
    ["not advertised and not given", false, () => undefined],
    ["not advertised but given right", false, (own: string) => own],
  ])("%s: the code is redeemed and the server connects", async (_what, issAdvertised, issInResponse) => {
    const honest = await world({ issAdvertised, issInResponse });
    const manager = await started({ url: honest.mcpUrl }, person());
    expect(manager.servers()[0]).toMatchObject({ status: "connected" });
    expect(honest.tokenRequests.map((request) => request.grant)).toEqual(["authorization_code"]);
  });

  it.each([
    [
      "advertised but missing",
      true,
      () => undefined,
      "without the iss parameter its authorization server promises",
    ],
    ["advertised, another issuer's", true, () => "https://as.attacker.example", ANOTHER],
    ["not advertised, another issuer's", false, () => "https://as.attacker.example", ANOTHER],
    ["its own with a trailing slash added: never normalised", true, (own: string) => `${own}/`, ANOTHER],
  ])("%s: the code is never redeemed", async (_what, issAdvertised, issInResponse, sentence) => {
    const hostile = await world({ issAdvertised, issInResponse });
    const manager = await started({ url: hostile.mcpUrl }, person());
    expect(manager.servers()[0]?.error).toBe(refusedSentence(sentence, hostile.issuer));
    expect(hostile.authorizations).toHaveLength(1);
    expect(hostile.tokenRequests).toEqual([]);
  });

  it("an error response from another issuer is neither acted on nor shown", async () => {
    const hostile = await world({
      refuseAuthorization: "access_denied_CLICK_HERE",
      issInResponse: () => "https://as.attacker.example",
    });
    const manager = await started({ url: hostile.mcpUrl }, person());
    const error = manager.servers()[0]?.error ?? "";
    expect(error).toBe(refusedSentence(ANOTHER, hostile.issuer));
    expect(error).not.toMatch(/CLICK_HERE|said no|attacker/);

    // From the right issuer, the same refusal is reported as the authorization server's word.
    const honest = await world({ refuseAuthorization: "access_denied", issInResponse: (own) => own });
    const refused = await started({ url: honest.mcpUrl }, person());
    expect(refused.servers()[0]?.error).toMatch(
      /the authorization server said access_denied \(the person said no\)/,
    );
  });
});
