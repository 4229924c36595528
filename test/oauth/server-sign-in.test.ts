import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfigDocument } from "../../src/core/config/config-schema.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import type { SignInPerson, SignInQuestion } from "../../src/core/oauth/server-auth.js";
import { credentialsInUse } from "../../src/core/oauth/issued-credentials.js";
import { OAuthStore } from "../../src/core/oauth/token-store.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { tempDir } from "../support/fixtures.js";
import {
  browse,
  startOAuthWorld,
  WORKLOAD_JWT,
  type OAuthWorld,
  type OAuthWorldOptions,
} from "../support/oauth-world.js";

/**
 * mcpterm's McpManager signing in to a remote server behind OAuth, against a real resource
 * server and authorization server on 127.0.0.1; the person is scripted, the browser is real HTTP.
 */
let world: OAuthWorld | undefined;
let managers: McpManager[] = [];

afterEach(async () => {
  await Promise.all(managers.map((manager) => manager.close()));
  managers = [];
  await world?.close();
  world = undefined;
});

interface Person extends SignInPerson {
  asked: SignInQuestion[];
}

function person(choice: "open" | "show" | "decline" = "open"): Person {
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

async function setUp(
  options: OAuthWorldOptions = {},
): Promise<{ world: OAuthWorld; store: OAuthStore; dir: string }> {
  world = await startOAuthWorld(options);
  const dir = await tempDir("mcpterm-oauth-");
  return { world, store: new OAuthStore(dir), dir };
}

function manager(
  url: string,
  store: OAuthStore,
  who: SignInPerson | undefined,
  entry: Record<string, unknown> = {},
  learned: string[] = [],
  extra: { redactor?: SecretRedactor; requestTimeoutMs?: number; typed?: boolean } = {},
): McpManager {
  const config = parseConfigDocument(
    { mcpServers: { secure: { url, ...entry } } },
    { fileLabel: "test", configDir: process.cwd(), env: {} },
  );
  const servers = config.servers.map((server) => (extra.typed ? { ...server, typed: true } : server));
  const created = new McpManager(servers, {
    parentEnv: {},
    ...(extra.redactor ? { redact: extra.redactor.redactText } : {}),
    oauth: {
      store,
      ...(extra.requestTimeoutMs ? { requestTimeoutMs: extra.requestTimeoutMs } : {}),
      learnSecret: (secret) => {
        learned.push(secret);
        extra.redactor?.learn(secret);
      },
      person: () => who,
      openUrl: async (address) => {
        await browse(address);
      },
    },
  });
  managers.push(created);
  return created;
}

const textOf = (result: { content: unknown[] }): string =>
  result.content.map((part) => (part as { text?: string }).text ?? "").join("");

describe("signing in to a remote server behind OAuth", () => {
  it("discovers, registers, asks the person, trades the code with PKCE and connects; the tokens are kept for the user alone", async () => {
    const { world, store } = await setUp();
    const signer = person();
    const learned: string[] = [];
    const first = manager(world.mcpUrl, store, signer, {}, learned);
    await first.start();
    expect(first.servers()[0]).toMatchObject({ status: "connected" });
    expect(signer.asked).toEqual([
      expect.objectContaining({ server: "secure", domain: new URL(world.issuer).host }),
    ]);
    expect(world.registrations).toBe(1);
    const [authorization] = world.authorizations;
    expect(authorization?.get("code_challenge_method")).toBe("S256");
    expect(authorization?.get("scope")).toBe("read");
    expect(authorization?.get("resource")).toBe(world.mcpUrl);
    expect(authorization?.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(authorization?.get("state")?.length).toBeGreaterThanOrEqual(40);
    expect(textOf(await first.callTool("secure", "whoami", {}))).toMatch(/you sent Bearer at-/);
    // Every token issued is known to the redactor; the file is the user's alone.
    for (const token of world.issued) expect(learned).toContain(token);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(store.path)).mode & 0o077).toBe(0);

    // The next process signs in with what is stored: nobody is asked, nothing is registered.
    const again = person();
    const second = manager(world.mcpUrl, store, again);
    await second.start();
    expect(second.servers()[0]).toMatchObject({ status: "connected" });
    expect(again.asked).toEqual([]);
    expect(world.registrations).toBe(1);
    expect(world.authorizations).toHaveLength(1);
  });

  it("registers again when the server moves to another authorization server, and never shows it the old client (SEP-2352)", async () => {
    const { world, store } = await setUp();
    const signer = person();
    const connected = manager(world.mcpUrl, store, signer);
    await connected.start();
    expect(connected.servers()[0]).toMatchObject({ status: "connected" });
    const firstClient = world.authorizations[0]?.get("client_id");
    expect(credentialsInUse(store.list()[0])?.client?.issuer).toBe(world.issuer);

    const moved = await world.migrate();
    expect(textOf(await connected.callTool("secure", "whoami", {}))).toMatch(/you sent Bearer at-/);
    expect(world.registeredAt).toEqual([world.issuer, moved]);
    expect(signer.asked.map((question) => question.domain)).toEqual([
      new URL(world.issuer).host,
      new URL(moved).host,
    ]);
    const secondClient = world.authorizations[1]?.get("client_id");
    expect(secondClient).toBeDefined();
    expect(secondClient).not.toBe(firstClient);
    // What is in use is the new server's, stamped with its issuer.
    const inUse = credentialsInUse(store.list()[0]);
    expect(inUse?.client).toMatchObject({ client_id: secondClient, issuer: moved });
    expect(inUse?.tokens?.issuer).toBe(moved);
  });

  it("a workload signs in with its platform's JWT (jwt-bearer), read from its file; a refused one is not retried", async () => {
    const { world, store, dir } = await setUp();
    const jwtFile = path.join(dir, "workload.jwt");
    writeFileSync(jwtFile, `${WORKLOAD_JWT}\n`);
    const workload = { grant: "workload", issuer: world.issuer, clientId: "ci-job", assertionFile: jwtFile };
    const learned: string[] = [];
    const nobody = person("decline");
    const connected = manager(world.mcpUrl, store, nobody, { oauth: workload }, learned);
    await connected.start();
    expect(connected.servers()[0]).toMatchObject({ status: "connected" });
    expect(nobody.asked).toEqual([]);
    expect(world.registrations).toBe(0);
    expect(world.tokenRequests).toEqual([
      { grant: "urn:ietf:params:oauth:grant-type:jwt-bearer", scope: "read" },
    ]);
    expect(learned).toContain(WORKLOAD_JWT);

    writeFileSync(jwtFile, "not-the-platform-jwt");
    const refused = manager(world.mcpUrl, store, nobody, { oauth: workload });
    await refused.start();
    expect(refused.servers()[0]?.error).toMatch(/invalid_grant|assertion not accepted/);
    expect(world.tokenRequests).toHaveLength(2);
  });

  it("a workload's JWT file that is a named pipe fails the sign-in in a sentence; it never blocks the process", async () => {
    const { world, store, dir } = await setUp();
    const jwtFile = path.join(dir, "workload.jwt");
    // A FIFO read synchronously would wait for a writer that never comes, timers and signals included.
    execFileSync("mkfifo", [jwtFile]);
    const workload = { grant: "workload", issuer: world.issuer, clientId: "ci-job", assertionFile: jwtFile };
    const connected = manager(world.mcpUrl, store, person("decline"), { oauth: workload });
    await connected.start();
    expect(connected.servers()[0]?.error).toContain(
      `could not read the workload's JWT from ${jwtFile}: it is a named pipe (FIFO), not a regular file`,
    );
    expect(world.tokenRequests).toEqual([]);
  });

  it("refreshes tokens about to expire before connecting, with no browser; the old ones stop working", async () => {
    const { world, store } = await setUp({ expiresIn: 2 });
    const first = manager(world.mcpUrl, store, person());
    await first.start();
    await first.close();
    const before = credentialsInUse(store.list()[0])?.tokens?.access_token;
    // Half the two-second life has passed: the next start refreshes before it connects.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const nobody = person("decline");
    const later = manager(world.mcpUrl, store, nobody);
    await later.start();
    expect(later.servers()[0]?.error).toBeUndefined();
    expect(later.servers()[0]).toMatchObject({ status: "connected" });
    expect(nobody.asked).toEqual([]);
    const grants = world.tokenRequests.map((request) => request.grant);
    expect(grants[0]).toBe("authorization_code");
    expect(grants.slice(1)).toContain("refresh_token");
    expect(grants.filter((grant) => grant === "authorization_code")).toHaveLength(1);
    const after = credentialsInUse(store.list()[0])?.tokens?.access_token;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    const stale = await fetch(world.mcpUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${before ?? ""}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(stale.status).toBe(401);
  });

  it("steps up on 403 insufficient_scope: asks again for the wider scope and sends the call once more", async () => {
    const { world, store } = await setUp();
    const signer = person();
    const connected = manager(world.mcpUrl, store, signer);
    await connected.start();
    expect(textOf(await connected.callTool("secure", "admin_task", {}))).toBe("admin done");
    expect(world.authorizations.map((query) => query.get("scope"))).toEqual(["read", "read admin"]);
    expect(signer.asked).toHaveLength(2);
    expect(world.calls).toEqual(["admin_task"]);
  });

  it("gives up when the server refuses even the wider scope, without asking in a loop", async () => {
    const { world, store } = await setUp({ stepUp: "always" });
    const signer = person();
    const connected = manager(world.mcpUrl, store, signer);
    await connected.start();
    await expect(connected.callTool("secure", "admin_task", {})).rejects.toThrow(/403/);
    expect(world.authorizations.length).toBeLessThanOrEqual(2);
    expect(world.calls).toEqual([]);
  });

  it("a declined sign-in leaves the server failed with the step and how to sign in later; no token is asked for", async () => {
    const { world, store } = await setUp();
    const connected = manager(world.mcpUrl, store, person("decline"));
    await connected.start();
    expect(connected.servers()[0]?.error).toMatch(/sign-in to "secure" was declined.*\/mcp login secure/);
    expect(world.tokenRequests).toEqual([]);
  });

  it("with nobody to ask (one-shot mode), says which command signs in and opens nothing", async () => {
    const { world, store } = await setUp();
    const connected = manager(world.mcpUrl, store, undefined);
    await connected.start();
    expect(connected.servers()[0]?.error).toBe(
      'server "secure" needs you to sign in (OAuth); run `mcpterm auth login secure` (or /mcp login secure in the TUI), then try again',
    );
    expect(world.authorizations).toEqual([]);
  });

  it("a 401 from a server that offers no OAuth says so and what to configure, not the raw answer", async () => {
    const { world, store } = await setUp({ noOAuth: true });
    const connected = manager(world.mcpUrl, store, person());
    await connected.start();
    const error = connected.servers()[0]?.error ?? "";
    expect(error).toMatch(
      /^server "secure" answered 401 \(it needs authorization\) but offers no way to sign in/,
    );
    expect(error).toContain('"Authorization": "Bearer ${SECURE_TOKEN}"');
    expect(error).not.toContain("invalid_token");
  });

  it("a server that refuses the very token it asked for says so and what to try, once", async () => {
    const { world, store } = await setUp({ rejectTokens: true });
    const signer = person();
    const connected = manager(world.mcpUrl, store, signer);
    await connected.start();
    expect(connected.servers()[0]?.error).toBe(
      'server "secure" refused the token it had just had issued (401 right after signing in): its authorization server may issue tokens for another audience, or the server may not accept them; run `mcpterm auth logout secure` and sign in once more, and if it happens again, tell the server\'s owner',
    );
    expect(signer.asked).toHaveLength(1);
    expect(world.authorizations).toHaveLength(1);
  });

  it("an authorization server whose metadata is invalid is named with what is wrong", async () => {
    const { world, store } = await setUp({ brokenMetadata: true });
    const connected = manager(world.mcpUrl, store, person());
    await connected.start();
    expect(connected.servers()[0]?.error).toBe(
      'server "secure" publishes OAuth metadata that is not valid (authorization_endpoint: Invalid input: expected string, received undefined; token_endpoint: Invalid input: expected string, received undefined), so mcpterm cannot sign in; the server\'s owner must fix it — or, if it takes a token, set it in mcpServers.secure.headers',
    );
    expect(world.registrations).toBe(0);
  });

  it('with "oauth": false, a 401 is explained in one sentence', async () => {
    const { world, store } = await setUp();
    const connected = manager(world.mcpUrl, store, person(), { oauth: false });
    await connected.start();
    expect(connected.servers()[0]?.error).toMatch(
      /^server "secure" refused the connection \(HTTP 401\): it needs authorization; check the token in mcpServers\.secure\.headers, or remove "oauth": false so mcpterm can sign in\.$/,
    );
    expect(world.authorizations).toEqual([]);
  });

  it("a server typed on the command line is told which flag sends a token, not a config key", async () => {
    const { world, store } = await setUp();
    const connected = manager(world.mcpUrl, store, person(), { oauth: false }, [], { typed: true });
    await connected.start();
    expect(connected.servers()[0]?.error).toMatch(
      /it needs authorization; pass its token with --header "Authorization: Bearer …", or name it in mcp\.config\.json to sign in\.$/,
    );
  });

  it("never sends the entry's own headers to the authorization server on another origin", async () => {
    const { world, store } = await setUp();
    const connected = manager(world.mcpUrl, store, person(), {
      headers: { "X-Api-Key": "k-1234567890-secret" },
    });
    await connected.start();
    expect(connected.servers()[0]).toMatchObject({ status: "connected" });
    expect(world.authServerHeaders.length).toBeGreaterThan(2);
    for (const headers of world.authServerHeaders) expect(headers["x-api-key"]).toBeUndefined();
  });

  it("pins pre-registered credentials to the configured issuer: another authorization server gets nothing", async () => {
    const { world, store } = await setUp();
    const connected = manager(world.mcpUrl, store, person(), {
      oauth: {
        clientId: "preset",
        clientSecret: "s3cret-value-0123456789",
        issuer: "https://login.example.com",
      },
    });
    await connected.start();
    expect(connected.servers()[0]?.error).toMatch(
      /oauth\.issuer is https:\/\/login\.example\.com; nothing was sent there/,
    );
    expect(world.tokenRequests).toEqual([]);
    expect(world.authorizations).toEqual([]);
  });

  it("with nobody to ask, registers no client and writes nothing", async () => {
    const { world, store } = await setUp();
    await manager(world.mcpUrl, store, undefined).start();
    expect(world.registrations).toBe(0);
    expect(store.list()).toEqual([]);
  });

  it("an authorization server that never answers the token request fails that step after the limit, not minutes later", async () => {
    const { world, store } = await setUp({ tokenEndpoint: "stall" });
    const connected = manager(world.mcpUrl, store, person(), {}, [], { requestTimeoutMs: 1000 });
    await connected.start();
    expect(connected.servers()[0]?.error).toMatch(
      new RegExp(
        `^sign-in to "secure" failed at token exchange: .*127\\.0\\.0\\.1:\\d+ did not answer within 1 s`,
      ),
    );
  });

  it("metadata its host never finishes answering is named, within the start-up time, not called missing", async () => {
    const { world, store } = await setUp({ stallResourceMetadata: true });
    const connected = manager(world.mcpUrl, store, person(), { startupTimeoutMs: 2000 });
    await connected.start();
    const error = connected.servers()[0]?.error ?? "";
    expect(error).toMatch(
      /^sign-in to "secure" failed at discovery: .*127\.0\.0\.1:\d+ did not answer within 1 s \(a fault of that host/,
    );
    expect(error).not.toMatch(/publishes no OAuth metadata|within 2000 ms/);
  });

  it("a client secret echoed back inside an Authorization: Basic header is redacted", async () => {
    const { world, store } = await setUp({ tokenEndpoint: "echo" });
    const redactor = new SecretRedactor([]);
    const secret = "sekrit-from-env-12345";
    const connected = manager(
      world.mcpUrl,
      store,
      person(),
      { oauth: { clientId: "preset", clientSecret: secret } },
      [],
      {
        redactor,
      },
    );
    await connected.start();
    const error = connected.servers()[0]?.error ?? "";
    expect(error).toContain("failed at token exchange");
    expect(error).toContain("Basic [REDACTED]");
    expect(error).not.toContain(Buffer.from(`preset:${secret}`).toString("base64"));
  });

  it("two processes refreshing the same rotating tokens at once both connect, and the sign-in survives", async () => {
    const { world, store } = await setUp({ expiresIn: 2 });
    const first = manager(world.mcpUrl, store, person());
    await first.start();
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const racers = [0, 1, 2].map(() => manager(world.mcpUrl, store, person("decline")));
    await Promise.all(racers.map((racer) => racer.start()));
    for (const racer of racers) expect(racer.servers()[0]).toMatchObject({ status: "connected" });
    expect(credentialsInUse(store.list()[0])?.tokens?.refresh_token).toBeDefined();
    expect(world.authorizations).toHaveLength(1);
  });

  it("a token file that is not valid JSON is neither used nor overwritten", async () => {
    const { world, store } = await setUp();
    writeFileSync(store.path, '{"signIns":[{"server":"other","url":"https://x"},]}');
    const connected = manager(world.mcpUrl, store, person());
    await connected.start();
    expect(connected.servers()[0]?.error).toMatch(/oauth\.json is not valid JSON; fix it or delete it/);
    expect(readFileSync(store.path, "utf8")).toBe('{"signIns":[{"server":"other","url":"https://x"},]}');
  });
});
