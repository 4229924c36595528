import { readFileSync, statSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfigDocument } from "../../src/core/config/config-schema.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { credentialsInUse, credentialsOf } from "../../src/core/oauth/issued-credentials.js";
import type { SignInPerson, SignInQuestion } from "../../src/core/oauth/server-auth.js";
import { OAuthStore, type StoredSignIn } from "../../src/core/oauth/token-store.js";
import { tempDir } from "../support/fixtures.js";
import { browse, startOAuthWorld, type OAuthWorld, type OAuthWorldOptions } from "../support/oauth-world.js";

/**
 * How sign-ins are kept between runs: per authorization server (by issuer), with the DPoP key
 * that binds their tokens, and read from the format of earlier versions. Real resource and
 * authorization servers on 127.0.0.1; the person is scripted, the browser is real HTTP.
 */
let world: OAuthWorld | undefined;
let managers: McpManager[] = [];

afterEach(async () => {
  await Promise.all(managers.map((manager) => manager.close()));
  managers = [];
  await world?.close();
  world = undefined;
});

function person(): SignInPerson & { asked: SignInQuestion[] } {
  const asked: SignInQuestion[] = [];
  return {
    asked,
    confirm: (question) => {
      asked.push(question);
      return Promise.resolve("open");
    },
    waiting: () => () => undefined,
  };
}

async function setUp(options: OAuthWorldOptions = {}): Promise<{ world: OAuthWorld; store: OAuthStore }> {
  world = await startOAuthWorld(options);
  return { world, store: new OAuthStore(await tempDir("mcpterm-credentials-")) };
}

/** A manager for the server "secure" (and `others`); `who` undefined is one-shot mode (no browser). */
async function connect(
  url: string,
  store: OAuthStore,
  who: SignInPerson | undefined,
  entry: Record<string, unknown> = {},
  others: Record<string, unknown> = {},
): Promise<McpManager> {
  const config = parseConfigDocument(
    { mcpServers: { secure: { url, ...entry }, ...others } },
    { fileLabel: "test", configDir: process.cwd(), env: {} },
  );
  const manager = new McpManager(config.servers, {
    parentEnv: {},
    oauth: {
      store,
      learnSecret: () => undefined,
      person: () => who,
      openUrl: async (address) => {
        await browse(address);
      },
    },
  });
  managers.push(manager);
  await manager.start();
  return manager;
}

const whoami = async (manager: McpManager): Promise<string> =>
  (await manager.callTool("secure", "whoami", {})).content
    .map((part) => (part as { text?: string }).text ?? "")
    .join("");

describe("stored credentials", () => {
  it("are kept per authorization server: moved away and back, the first sign-in is used again, and no token goes to the server after it names another issuer", async () => {
    const { world, store } = await setUp();
    const signer = person();
    const manager = await connect(world.mcpUrl, store, signer);
    expect(manager.servers()[0]).toMatchObject({ status: "connected" });
    const first = world.issuer;

    const second = await world.switchAuthorizationServer();
    expect(await whoami(manager)).toMatch(/you sent Bearer at-/);
    expect(world.registeredAt).toEqual([first, second]);
    expect(signer.asked.map((question) => question.domain)).toEqual([
      new URL(first).host,
      new URL(second).host,
    ]);
    const entry = store.list()[0];
    expect(entry?.credentials.map((set) => set.issuer)).toEqual([first, second]);
    expect(credentialsInUse(entry)?.tokens?.issuer).toBe(second);

    // Back to the first: its client and refresh token are still there; nobody is asked again.
    const requestsBefore = world.resourceRequests.length;
    expect(await world.switchAuthorizationServer()).toBe(first);
    expect(await whoami(manager)).toMatch(/you sent Bearer at-/);
    expect(signer.asked).toHaveLength(2);
    expect(world.registrations).toBe(2);
    expect(world.tokenRequests.map((request) => request.grant)).toEqual([
      "authorization_code",
      "authorization_code",
      "refresh_token",
    ]);
    // Across both moves, the one request that found out about a move carried the old issuer's
    // token; none after it did.
    const mismatched = world.resourceRequests.filter(
      (request) => request.tokenIssuer !== undefined && request.tokenIssuer !== request.named,
    );
    expect(mismatched).toHaveLength(2);
    expect(
      world.resourceRequests.slice(requestsBefore + 1).every((request) => request.tokenIssuer !== second),
    ).toBe(true);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);

    // A new process, while the server names the first: its tokens, without a browser.
    const oneShot = await connect(world.mcpUrl, store, undefined);
    expect(oneShot.servers()[0]).toMatchObject({ status: "connected" });
  });

  it("two servers that share one authorization server each keep their own client and tokens", async () => {
    const { world, store } = await setUp();
    const signer = person();
    const manager = await connect(world.mcpUrl, store, signer, {}, { twin: { url: world.mcpUrl } });
    expect(manager.servers().map((server) => server.status)).toEqual(["connected", "connected"]);
    expect(signer.asked.map((question) => question.server).sort()).toEqual(["secure", "twin"]);
    const clients = store.list().map((entry) => {
      expect(entry.credentials.map((set) => set.issuer)).toEqual([world.issuer]);
      return credentialsInUse(entry)?.client?.client_id;
    });
    expect(new Set(clients).size).toBe(2);

    expect(await manager.connection("twin")?.signOut()).toBe(true);
    expect(store.list().map((entry) => entry.server)).toEqual(["secure"]);
    expect(await whoami(manager)).toMatch(/you sent Bearer at-/);
  });

  it("a sign-in stored by an earlier version (one client and one set of tokens per server) still works, refresh and all", async () => {
    const { world, store } = await setUp();
    await connect(world.mcpUrl, store, person());
    const entry = store.list()[0];
    const inUse = credentialsInUse(entry);
    // The format before this one: no issuer key, no credentials list, nothing stamped.
    const { issuer: _client, ...client } = inUse?.client ?? { client_id: "" };
    const { issuer: _tokens, ...tokens } = inUse?.tokens ?? { access_token: "", token_type: "" };
    const old = {
      server: "secure",
      url: world.mcpUrl,
      client,
      tokens,
      savedAt: inUse?.savedAt,
      discovery: entry?.discovery,
    };
    writeFileSync(store.path, JSON.stringify({ version: 1, signIns: [old] }), { mode: 0o600 });
    await Promise.all(managers.splice(0).map((manager) => manager.close()));

    world.expireAccessTokens();
    const upgraded = await connect(world.mcpUrl, store, undefined);
    expect(upgraded.servers()[0]).toMatchObject({ status: "connected" });
    expect(await whoami(upgraded)).toMatch(/you sent Bearer at-/);
    expect(world.registrations).toBe(1);
    expect(world.tokenRequests.map((request) => request.grant)).toEqual([
      "authorization_code",
      "refresh_token",
    ]);
    const rewritten = JSON.parse(readFileSync(store.path, "utf8")) as { version: number };
    expect(rewritten.version).toBe(2);
    expect(credentialsInUse(store.list()[0])).toMatchObject({
      issuer: world.issuer,
      client: { client_id: client.client_id, issuer: world.issuer },
    });
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
  });

  it("DPoP: the key is stored with the tokens it binds, so the next run refreshes them without a browser; a sign-out forgets it", async () => {
    const { world, store } = await setUp({ dpop: true });
    const signer = person();
    const first = await connect(world.mcpUrl, store, signer, { oauth: { dpop: true } });
    expect(first.servers()[0]).toMatchObject({ status: "connected" });
    expect(await whoami(first)).toMatch(/you sent DPoP at-/);
    const stored = credentialsInUse(store.list()[0]);
    expect(stored?.tokens?.token_type).toBe("DPoP");
    expect(stored?.dpopKey).toMatchObject({ kty: "EC", crv: "P-256", d: expect.any(String) as string });
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    await Promise.all(managers.splice(0).map((manager) => manager.close()));

    // The next run: the access token no longer works, the refresh token is bound to the key.
    world.expireAccessTokens();
    const second = await connect(world.mcpUrl, store, undefined, { oauth: { dpop: true } });
    expect(second.servers()[0]).toMatchObject({ status: "connected" });
    expect(await whoami(second)).toMatch(/you sent DPoP at-/);
    expect(signer.asked).toHaveLength(1);
    expect(world.tokenRequests.map((request) => request.grant)).toEqual([
      "authorization_code",
      "refresh_token",
    ]);
    expect(new Set(world.dpopKeys).size).toBe(1);

    expect(await second.connection("secure")?.signOut()).toBe(true);
    expect(readFileSync(store.path, "utf8")).not.toContain('"d"');
    expect(store.list()).toEqual([]);
  });
});

describe("stored credentials read from an earlier format", () => {
  const issuerA = "https://a.example/";
  const issuerB = "https://b.example/";
  const url = "https://mcp.example/mcp";

  async function storeHolding(signIn: Record<string, unknown>, version = 1): Promise<OAuthStore> {
    const store = new OAuthStore(await tempDir("mcpterm-credentials-"));
    writeFileSync(store.path, JSON.stringify({ version, signIns: [{ server: "secure", url, ...signIn }] }), {
      mode: 0o600,
    });
    return store;
  }

  it("a client stamped by one issuer and tokens stamped by another are each kept under their own issuer", async () => {
    const store = await storeHolding({
      client: { client_id: "client-of-a", issuer: issuerA },
      tokens: { access_token: "token-of-b", token_type: "Bearer", issuer: issuerB },
      savedAt: 1,
      discovery: { authorizationServerUrl: issuerB },
    });
    const entry = store.get("secure", url);
    expect(credentialsOf(entry, issuerB)?.tokens?.access_token).toBe("token-of-b");
    expect(credentialsOf(entry, issuerA)?.tokens).toBeUndefined();
    expect(credentialsOf(entry, issuerA)?.client?.client_id).toBe("client-of-a");
    expect(credentialsOf(entry, issuerB)?.client).toBeUndefined();
    expect(credentialsInUse(entry)?.tokens?.access_token).toBe("token-of-b");
  });

  it("credentials whose issuer nothing recorded go to the first issuer discovery names, and to no other", async () => {
    const store = await storeHolding({
      client: { client_id: "old-client" },
      tokens: { access_token: "old-token", token_type: "Bearer" },
    });
    // Nothing names an issuer yet: whoever asks may have them.
    expect(credentialsOf(store.get("secure", url), issuerB)?.tokens?.access_token).toBe("old-token");

    store.update("secure", url, (entry) => {
      entry.discovery = { authorizationServerUrl: issuerA };
    });
    const entry = store.get("secure", url);
    expect(credentialsOf(entry, issuerA)?.tokens?.access_token).toBe("old-token");
    expect(credentialsOf(entry, issuerB)).toBeUndefined();
    // Bound for good: a later discovery naming another issuer does not move them there.
    store.update("secure", url, (stored) => {
      stored.discovery = { authorizationServerUrl: issuerB };
    });
    expect(credentialsOf(store.get("secure", url), issuerB)).toBeUndefined();
    expect(credentialsOf(store.get("secure", url), issuerA)?.tokens?.access_token).toBe("old-token");
  });

  it("credentials without an issuer are never handed out for an issuer other than the entry's", async () => {
    const store = await storeHolding(
      {
        issuer: issuerA,
        credentials: [
          { issuer: issuerA, tokens: { access_token: "token-of-a", token_type: "Bearer" } },
          { tokens: { access_token: "token-of-nobody", token_type: "Bearer" } },
        ],
      },
      2,
    );
    const entry = store.get("secure", url);
    expect(credentialsOf(entry, issuerA)?.tokens?.access_token).toBe("token-of-a");
    expect(credentialsOf(entry, issuerB)).toBeUndefined();
  });
});

describe("sign-out", () => {
  it("waits for the store's lock, so a refresh another process finishes under it does not bring the sign-in back", async () => {
    const dir = await tempDir("mcpterm-credentials-");
    const refresher = new OAuthStore(dir);
    const signingOut = new OAuthStore(dir);
    const url = "https://mcp.example/mcp";
    const save = (token: string) => (entry: StoredSignIn) => {
      entry.issuer = "https://a.example/";
      entry.credentials = [
        { issuer: "https://a.example/", tokens: { access_token: token, token_type: "Bearer" } },
      ];
    };
    refresher.update("secure", url, save("first"));

    let forgotten: Promise<number> | undefined;
    await refresher.locked(async () => {
      // Asked while the other process holds the lock for a refresh...
      forgotten = signingOut.forget("secure");
      // ...whose new tokens are saved before it lets go.
      refresher.update("secure", url, save("refreshed"));
      await Promise.resolve();
    });
    expect(await forgotten).toBe(1);
    expect(signingOut.list()).toEqual([]);
    expect(readFileSync(signingOut.path, "utf8")).not.toContain("refreshed");
  });
});
