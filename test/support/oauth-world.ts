import { createHash, createPublicKey, randomBytes, verify, type JsonWebKey } from "node:crypto";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/**
 * A remote MCP server behind OAuth, as hosted servers are: a resource server (Streamable HTTP,
 * bearer tokens, RFC 9728 metadata, 401/403 challenges) and, on another origin, its own
 * authorization server (RFC 8414 metadata, dynamic registration, authorization code with PKCE,
 * refresh with rotation). Real HTTP on 127.0.0.1, everything recorded for the tests to check.
 */
export interface OAuthWorld {
  mcpUrl: string;
  issuer: string;
  /** Token requests, in order (grant type and the scope asked for). */
  tokenRequests: Array<{ grant: string; scope: string | undefined }>;
  /** Authorization requests, in order (their query). */
  authorizations: URLSearchParams[];
  registrations: number;
  /** The headers of every request the authorization server received. */
  authServerHeaders: IncomingHttpHeaders[];
  /** Every access and refresh token issued, live or not. */
  issued: string[];
  /** Tool calls that got through, by name. */
  calls: string[];
  /** The authorization server (its base URL) each client registration went to, in order. */
  registeredAt: string[];
  /**
   * The resource moves to a new authorization server (SEP-2352): its protected-resource metadata
   * names the new one, tokens and clients of the old one stop working. Returns the new issuer.
   */
  migrate(): Promise<string>;
  /**
   * The resource names the other of two authorization servers (the second made on first use),
   * revoking nothing: each still honours what it issued, but the resource takes only tokens of
   * the one it names now. Returns the issuer it names.
   */
  switchAuthorizationServer(): Promise<string>;
  /** Every request to the resource: the issuer it named then, and that of the token it got. */
  resourceRequests: Array<{ named: string; tokenIssuer: string | undefined }>;
  /** Every access token stops working (refresh tokens still do). */
  expireAccessTokens(): void;
  /** With `dpop`: the thumbprint of the key each token request's proof was signed with. */
  dpopKeys: string[];
  close(): Promise<void>;
}

export interface OAuthWorldOptions {
  /** Access token lifetime in seconds (default 3600). */
  expiresIn?: number;
  /** `admin_task` needs the "admin" scope beyond "read"; "always": it is refused whatever the token. */
  stepUp?: "always";
  /** Serve no OAuth metadata and no registration: a 401 with no way to sign in. */
  noOAuth?: boolean;
  /** The protected-resource metadata is never answered (a host that takes the request and stalls). */
  stallResourceMetadata?: boolean;
  /**
   * The token endpoint never answers ("stall"), refuses quoting the request's Authorization
   * header ("echo"), or answers with a body that never ends ("flood").
   */
  tokenEndpoint?: "stall" | "echo" | "flood";
  /** The resource server answers 401 to every token, even one just issued for it. */
  rejectTokens?: boolean;
  /** The authorization server's metadata lacks the fields RFC 8414 requires (no endpoints). */
  brokenMetadata?: boolean;
  /** The issuer its metadata claims, instead of its own URL (an authorization-server mix-up). */
  issuerClaim?: (own: string) => string;
  /**
   * A server of the 2025-03-26 spec: no protected-resource metadata; the resource server serves
   * the authorization server's metadata at its own root, claiming this issuer.
   */
  legacyIssuer?: (resourceBase: string, authServerBase: string) => string;
  /** The metadata advertises `authorization_response_iss_parameter_supported` (RFC 9207). */
  issAdvertised?: boolean;
  /** The `iss` the authorization response carries (none when this returns undefined). */
  issInResponse?: (own: string) => string | undefined;
  /** The authorization server refuses every authorization with this error (and the response's `iss`). */
  refuseAuthorization?: string;
  /** The authorization_endpoint its metadata names, instead of its own /authorize. */
  authorizationEndpoint?: string;
  /**
   * DPoP (RFC 9449): every token request must carry a proof; tokens are bound to its key
   * (`token_type: "DPoP"`), a refresh only with a proof of the same key, and the resource takes
   * a token only under the DPoP scheme with a proof of that key.
   */
  dpop?: boolean;
}

/** The JWT a workload's platform issued it, which this world's authorization server accepts. */
export const WORKLOAD_JWT = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2lnbmVk";

interface Token {
  scope: string;
  expiresAt: number;
  refresh: string;
  issuer: string;
  /** The thumbprint of the DPoP key the token is bound to. */
  jkt: string | undefined;
}

export async function startOAuthWorld(options: OAuthWorldOptions = {}): Promise<OAuthWorld> {
  const access = new Map<string, Token>();
  const refreshes = new Map<
    string,
    { scope: string; client: string; issuer: string; jkt: string | undefined }
  >();
  const codes = new Map<string, { client: string; redirect: string; challenge: string; scope: string }>();
  // "preset" stands for a client registered beforehand (the entry names it in its oauth settings).
  const clients = new Set<string>(["preset"]);
  const world: Omit<
    OAuthWorld,
    "mcpUrl" | "issuer" | "close" | "migrate" | "switchAuthorizationServer" | "expireAccessTokens"
  > = {
    tokenRequests: [],
    authorizations: [],
    registrations: 0,
    authServerHeaders: [],
    issued: [],
    calls: [],
    registeredAt: [],
    resourceRequests: [],
    dpopKeys: [],
  };
  const expiresIn = options.expiresIn ?? 3600;

  const issue = (scope: string, client: string, issuer: string, jkt?: string): Record<string, unknown> => {
    const token = `at-${randomBytes(24).toString("hex")}`;
    const refresh = `rt-${randomBytes(24).toString("hex")}`;
    access.set(token, { scope, expiresAt: Date.now() + expiresIn * 1000, refresh, issuer, jkt });
    refreshes.set(refresh, { scope, client, issuer, jkt });
    world.issued.push(token, refresh);
    return {
      access_token: token,
      token_type: jkt === undefined ? "Bearer" : "DPoP",
      expires_in: expiresIn,
      refresh_token: refresh,
      scope,
    };
  };

  const authServerHandler = async (
    request: IncomingMessage,
    response: ServerResponse,
    base: string,
  ): Promise<void> => {
    world.authServerHeaders.push(request.headers);
    const url = new URL(request.url ?? "/", base);
    if (options.noOAuth) {
      json(response, 404, { error: "not_found" });
      return;
    }
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      if (options.brokenMetadata) {
        json(response, 200, { issuer: base, response_types_supported: ["code"] });
        return;
      }
      json(response, 200, {
        ...metadata(base, options.issuerClaim?.(base) ?? base),
        ...(options.issAdvertised ? { authorization_response_iss_parameter_supported: true } : {}),
        ...(options.authorizationEndpoint ? { authorization_endpoint: options.authorizationEndpoint } : {}),
      });
      return;
    }
    if (url.pathname === "/register" && request.method === "POST") {
      world.registrations += 1;
      world.registeredAt.push(base);
      const metadata = JSON.parse(await readBody(request)) as Record<string, unknown>;
      const clientId = `client-${randomBytes(8).toString("hex")}`;
      clients.add(clientId);
      json(response, 201, {
        ...metadata,
        client_id: clientId,
        client_id_issued_at: Math.floor(Date.now() / 1000),
      });
      return;
    }
    if (url.pathname === "/authorize") {
      world.authorizations.push(url.searchParams);
      const client = url.searchParams.get("client_id") ?? "";
      const redirect = url.searchParams.get("redirect_uri") ?? "";
      if (
        !clients.has(client) ||
        url.searchParams.get("code_challenge_method") !== "S256" ||
        !redirect.startsWith("http://127.0.0.1:")
      ) {
        json(response, 400, { error: "invalid_request" });
        return;
      }
      const code = randomBytes(16).toString("hex");
      codes.set(code, {
        client,
        redirect,
        challenge: url.searchParams.get("code_challenge") ?? "",
        scope: url.searchParams.get("scope") ?? "",
      });
      const back = new URL(redirect);
      if (options.refuseAuthorization) {
        back.searchParams.set("error", options.refuseAuthorization);
        back.searchParams.set("error_description", "the person said no");
      } else back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      const iss = options.issInResponse?.(base);
      if (iss !== undefined) back.searchParams.set("iss", iss);
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === "/token" && request.method === "POST") {
      if (options.tokenEndpoint === "stall") return new Promise<void>(() => undefined);
      if (options.tokenEndpoint === "flood") {
        endless(response, '{"access_token":"');
        return;
      }
      if (options.tokenEndpoint === "echo") {
        json(response, 400, {
          error: "invalid_client",
          error_description: `bad credentials: ${request.headers.authorization ?? "none"}`,
        });
        return;
      }
      const form = new URLSearchParams(await readBody(request));
      const grant = form.get("grant_type") ?? "";
      world.tokenRequests.push({ grant, scope: form.get("scope") ?? undefined });
      let jkt: string | undefined;
      if (options.dpop) {
        jkt = dpopProofKey(request.headers.dpop, "POST", `${base}/token`);
        if (jkt === undefined) {
          json(response, 400, { error: "invalid_dpop_proof" });
          return;
        }
        world.dpopKeys.push(jkt);
      }
      if (grant === "authorization_code") {
        const code = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (!code || code.challenge !== challenge || code.redirect !== form.get("redirect_uri")) {
          json(response, 400, { error: "invalid_grant" });
          return;
        }
        json(response, 200, issue(code.scope, code.client, base, jkt));
        return;
      }
      if (grant === "refresh_token") {
        const old = form.get("refresh_token") ?? "";
        const known = refreshes.get(old);
        // A refresh token is honoured by the server that issued it, with the key it is bound to.
        if (!known || known.issuer !== base || known.jkt !== jkt) {
          json(response, 400, { error: "invalid_grant" });
          return;
        }
        // Rotation: the old refresh token and every access token it backed stop working.
        refreshes.delete(old);
        for (const [token, value] of access) if (value.refresh === old) access.delete(token);
        json(response, 200, issue(known.scope, known.client, base, jkt));
        return;
      }
      if (grant === "urn:ietf:params:oauth:grant-type:jwt-bearer") {
        // Workload identity: the one JWT this world's platform issued is good, nothing else.
        if (form.get("assertion") !== WORKLOAD_JWT) {
          json(response, 400, { error: "invalid_grant", error_description: "assertion not accepted" });
          return;
        }
        json(response, 200, issue(form.get("scope") ?? "read", form.get("client_id") ?? "", base, jkt));
        return;
      }
      json(response, 400, { error: "unsupported_grant_type" });
      return;
    }
    json(response, 404, { error: "not_found" });
  };
  const authServer = await listen(authServerHandler);
  const issuer = authServer.base;
  let currentIssuer = issuer;
  let movedTo: { base: string; close: () => Promise<void> } | undefined;
  let second: { base: string; close: () => Promise<void> } | undefined;

  const resource = await listen(async (request, response, base) => {
    const url = new URL(request.url ?? "/", base);
    const prm = `${base}/.well-known/oauth-protected-resource/mcp`;
    const { legacyIssuer } = options;
    if (legacyIssuer && url.pathname === "/.well-known/oauth-authorization-server") {
      json(response, 200, metadata(issuer, legacyIssuer(base, issuer)));
      return;
    }
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
      if (options.stallResourceMetadata) return new Promise<void>(() => undefined);
      if (options.noOAuth || legacyIssuer) {
        json(response, 404, { error: "not_found" });
        return;
      }
      json(response, 200, {
        resource: `${base}/mcp`,
        authorization_servers: [currentIssuer],
        scopes_supported: ["read", "admin"],
      });
      return;
    }
    if (url.pathname !== "/mcp") {
      json(response, 404, { error: "not_found" });
      return;
    }
    const [, scheme, presented] = /^(Bearer|DPoP) (.+)$/.exec(request.headers.authorization ?? "") ?? [];
    const found = presented === undefined ? undefined : access.get(presented);
    world.resourceRequests.push({ named: currentIssuer, tokenIssuer: found?.issuer });
    const proven =
      found?.jkt === undefined
        ? scheme === "Bearer"
        : scheme === "DPoP" &&
          dpopProofKey(request.headers.dpop, request.method ?? "", `${base}/mcp`) === found.jkt;
    const token = found?.issuer === currentIssuer && proven ? found : undefined;
    if (!token || token.expiresAt <= Date.now() || options.rejectTokens) {
      response.writeHead(401, {
        "content-type": "application/json",
        "www-authenticate": `Bearer error="invalid_token", resource_metadata="${prm}", scope="read"`,
      });
      response.end(JSON.stringify({ error: "invalid_token", error_description: "sign in first" }));
      return;
    }
    const body = request.method === "POST" ? await readBody(request) : "";
    const message = body ? (JSON.parse(body) as { method?: string; params?: { name?: string } }) : undefined;
    const tool = message?.method === "tools/call" ? message.params?.name : undefined;
    const refused = options.stepUp === "always" || !token.scope.split(" ").includes("admin");
    if (tool === "admin_task" && refused) {
      response.writeHead(403, {
        "content-type": "application/json",
        "www-authenticate": `Bearer error="insufficient_scope", scope="read admin", resource_metadata="${prm}"`,
      });
      response.end(JSON.stringify({ error: "insufficient_scope" }));
      return;
    }
    if (tool) world.calls.push(tool);
    const server = new McpServer({ name: "oauth-world", version: "1.0.0" });
    server.registerTool(
      "whoami",
      {
        description: "Says who you are, quoting the Authorization header it got.",
        annotations: { readOnlyHint: true },
      },
      () => ({
        content: [{ type: "text", text: `you sent ${request.headers.authorization ?? "nothing"}` }],
      }),
    );
    server.registerTool(
      "admin_task",
      { description: "Needs the admin scope.", annotations: { readOnlyHint: true } },
      () => ({
        content: [{ type: "text", text: "admin done" }],
      }),
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, message);
    response.on("close", () => void server.close());
  });

  return Object.assign(world, {
    mcpUrl: `${resource.base}/mcp`,
    issuer,
    migrate: async () => {
      movedTo = await listen(authServerHandler);
      currentIssuer = movedTo.base;
      access.clear();
      refreshes.clear();
      for (const client of clients) if (client !== "preset") clients.delete(client);
      return currentIssuer;
    },
    switchAuthorizationServer: async () => {
      second ??= await listen(authServerHandler);
      currentIssuer = currentIssuer === issuer ? second.base : issuer;
      return currentIssuer;
    },
    expireAccessTokens: () => access.clear(),
    close: async () => {
      await Promise.all([authServer.close(), resource.close(), movedTo?.close(), second?.close()]);
    },
  });
}

/**
 * What a browser does once the person signed in: loads the authorization page, which answers
 * with a redirect, and follows it to mcpterm's loopback listener. Returns the listener's status.
 */
export async function browse(address: string): Promise<number> {
  const page = await fetch(address, { redirect: "manual" });
  const location = page.headers.get("location");
  if (!location) throw new Error(`the authorization page answered ${page.status} without a redirect`);
  return (await fetch(location, { redirect: "manual" })).status;
}

/** The sign-in address a command printed, if it printed one yet. */
export function signInAddress(output: string): string | undefined {
  return /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(output)?.[1];
}

async function listen(
  handle: (request: IncomingMessage, response: ServerResponse, base: string) => Promise<void>,
): Promise<{ base: string; close: () => Promise<void> }> {
  let base = "";
  const server: Server = createServer((request, response) => {
    handle(request, response, base).catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { error: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The RFC 7638 thumbprint of the key a DPoP proof (RFC 9449 §4.3) was signed with, when the
 * proof is one (typ, alg ES256, embedded public key, signature) for this method and URL.
 */
function dpopProofKey(proof: string | string[] | undefined, method: string, url: string): string | undefined {
  if (typeof proof !== "string") return undefined;
  const [head = "", body = "", signature = ""] = proof.split(".");
  try {
    const header = JSON.parse(Buffer.from(head, "base64url").toString()) as {
      typ?: string;
      alg?: string;
      jwk?: JsonWebKey;
    };
    const claims = JSON.parse(Buffer.from(body, "base64url").toString()) as { htm?: string; htu?: string };
    if (header.typ !== "dpop+jwt" || header.alg !== "ES256" || !header.jwk) return undefined;
    if (claims.htm !== method || claims.htu !== url) return undefined;
    const key = createPublicKey({ key: header.jwk, format: "jwk" });
    const signed = Buffer.from(`${head}.${body}`);
    if (!verify("sha256", signed, { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url")))
      return undefined;
    const { crv, kty, x, y } = header.jwk;
    return createHash("sha256").update(JSON.stringify({ crv, kty, x, y })).digest("base64url");
  } catch {
    return undefined;
  }
}

/** RFC 8414 metadata of the authorization server at `base`, claiming `issuer`. */
function metadata(base: string, issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    registration_endpoint: `${base}/register`,
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_basic"],
  };
}

/**
 * A 200 answer that starts with `start` and goes on until the client hangs up: what a hostile
 * authorization server or identity provider sends to fill a client's memory.
 */
export function endless(response: ServerResponse, start: string): void {
  response.writeHead(200, { "content-type": "application/json" });
  response.write(start);
  const chunk = "a".repeat(64 * 1024);
  const more = (): void => {
    while (!response.destroyed && response.write(chunk));
    if (!response.destroyed) response.once("drain", more);
  };
  more();
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}
