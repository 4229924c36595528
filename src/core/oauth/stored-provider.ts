import { randomBytes } from "node:crypto";
import type {
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from "@modelcontextprotocol/client";
import { ServerUnavailableError } from "../errors.js";
import { needsLoginSentence, noOAuthSentence } from "./sign-in-sentences.js";
import { CLIENT_INFO } from "../version.js";
import { freeLoopbackPort, LOOPBACK_HOST, redirectUrlFor } from "./loopback-redirect.js";
import type { ServerOAuth } from "../config/server-oauth.js";
import { LastingDpopKeys } from "./dpop-binding.js";
import {
  credentialsOf,
  discoveredIssuer,
  editCredentials,
  type IssuedCredentials,
  type StoredSignIn,
} from "./issued-credentials.js";
import type { OAuthStore } from "./token-store.js";

/** Where a sign-in stands, to name the step that failed. */
export type SignInStep = "discovery" | "registration" | "authorization" | "token exchange";

/**
 * The SDK's view of one server's sign-in with a person at a browser (authorization code + PKCE,
 * loopback redirect): it keeps what the SDK hands it in the user's OAuth store and records the
 * page the person must open, which the connection then shows (it never opens anything itself).
 * Clients and tokens are kept per authorization server, by the issuer the SDK names with each
 * read and write; the transport's own read (no issuer) gets those of the issuer in use.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  private port: number | undefined;
  private verifier: string | undefined;
  private sentState: string | undefined;
  private authorizationUrl: URL | undefined;
  /** Set from the SDK's first callback of a sign-in until its tokens are saved. */
  private running: SignInStep | undefined;
  /** The scopes a 403 insufficient_scope asked for, until tokens with them are saved. */
  private wanted: string[] | undefined;
  /** The refresh token last handed to the SDK: a failed refresh may forget only that one. */
  private servedRefresh: string | undefined;
  /** The issuer discovery named in this process, stored or not (nobody may be there to sign in). */
  private resolvedIssuer: string | undefined;
  /** With `"dpop": true`: the keys tokens are bound to, saved with them. */
  private readonly dpopKeys: LastingDpopKeys | undefined;
  dpop?: () => Promise<DpopSession>;
  /** The Authorization header of the last refused request: one refusal, one fresh discovery. */
  private refusedToken: string | undefined;

  constructor(
    private readonly server: string,
    private readonly url: string,
    private readonly oauth: ServerOAuth | undefined,
    private readonly store: OAuthStore,
    private readonly learnSecret: (secret: string) => void,
    /** Whether a person can sign in now; when not, no client is registered and nothing stored. */
    private readonly canAsk: () => boolean,
    /** The server was typed on the command line (`--url`): advice names flags, not config keys. */
    private readonly typed = false,
  ) {
    for (const secret of this.secrets()) learnSecret(secret);
    if (oauth?.dpop) {
      const keys = new LastingDpopKeys();
      this.dpopKeys = keys;
      this.dpop = () => keys.session(this.inUse()?.dpopKey);
    }
    if (oauth?.clientId !== undefined && oauth.clientSecret !== undefined)
      for (const form of credentialForms(oauth.clientId, oauth.clientSecret)) learnSecret(form);
  }

  /** The stored secrets of this server, every issuer's (tokens, a registered client's secret), to redact. */
  secrets(): string[] {
    const entry = this.store.get(this.server, this.url);
    return (entry?.credentials ?? [])
      .flatMap(({ tokens, client }) => [
        tokens?.access_token,
        tokens?.refresh_token,
        tokens?.id_token,
        ...(client?.client_secret ? credentialForms(client.client_id, client.client_secret) : []),
      ])
      .filter((value): value is string => typeof value === "string");
  }

  get redirectUrl(): string {
    return redirectUrlFor(this.port ?? this.registeredPort() ?? 0);
  }

  get clientMetadataUrl(): string | undefined {
    return this.oauth?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: CLIENT_INFO.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // A terminal program keeps no secret: a public client, as RFC 8252 says native apps are.
      token_endpoint_auth_method: this.oauth?.clientSecret === undefined ? "none" : "client_secret_post",
      ...(this.oauth?.scopes ? { scope: this.oauth.scopes.join(" ") } : {}),
    };
  }

  /** The sign-in step in progress, or undefined when none is. */
  get step(): SignInStep | undefined {
    return this.running;
  }

  /** The page the person must open to go on, set when the SDK asked for it. */
  get pendingAuthorization(): URL | undefined {
    return this.authorizationUrl;
  }

  /** The loopback port the redirect will come to, chosen by `discoveryState`. */
  get redirectPort(): number | undefined {
    return this.port;
  }

  /** The state sent with the authorization request, which the redirect must carry back. */
  get expectedState(): string | undefined {
    return this.sentState;
  }

  /**
   * The server refused the token it was sent: it may have moved to another authorization server
   * (SEP-2352: its protected-resource metadata now names another), which only a fresh discovery
   * finds, so what discovery found is forgotten, once per refused token and never while a
   * sign-in is under way (its code must go back to where the person was sent).
   */
  tokenRefused(authorization: string): void {
    if (authorization === this.refusedToken || this.authorizationUrl !== undefined) return;
    this.refusedToken = authorization;
    this.store.update(this.server, this.url, (entry) => {
      delete entry.discovery;
    });
  }

  /** Forgets the page to open (after a sign-in finished, failed or was declined). */
  settle(): void {
    this.authorizationUrl = undefined;
    this.running = undefined;
  }

  /**
   * Chooses the loopback port the redirect will come to (the configured one, the one the stored
   * client was registered with, or a free one), before the SDK reads `redirectUrl`: it reads it
   * first thing in a sign-in, before anything it awaits. Called when the server answers 401, so
   * servers that never ask for a sign-in cost no port and no file read.
   */
  async choosePort(): Promise<void> {
    this.port ??= this.oauth?.redirectPort ?? this.registeredPort() ?? (await freeLoopbackPort());
  }

  /** The SDK's first await in every sign-in. */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    this.running = "discovery";
    await this.choosePort();
    const discovery = this.entry()?.discovery;
    this.resolvedIssuer = discoveredIssuer(discovery) ?? this.resolvedIssuer;
    return discovery;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    // Nobody can sign in here (one-shot mode, the developer commands): stop before registering
    // a client or writing anything, with the sentence that says how to sign in.
    // From now on this issuer's tokens are the ones sent, even if nothing may be stored.
    this.resolvedIssuer = discoveredIssuer(state);
    if (!this.canAsk() && !credentialsOf(this.entry(), this.resolvedIssuer)?.tokens?.refresh_token) {
      const found = state.resourceMetadata !== undefined || state.authorizationServerMetadata !== undefined;
      throw new ServerUnavailableError(
        found
          ? needsLoginSentence(this.server, this.typed)
          : noOAuthSentence(this.server, undefined, this.typed),
      );
    }
    const pinned = this.oauth?.issuer;
    if (pinned !== undefined && !sameIssuer(pinned, state.authorizationServerUrl))
      throw new ServerUnavailableError(
        `the server sends sign-ins to ${state.authorizationServerUrl}, but its entry's oauth.issuer is ${pinned}; nothing was sent there. Check the entry, or remove "issuer" if the server moved.`,
      );
    this.running = "registration";
    this.store.update(this.server, this.url, (entry) => {
      entry.discovery = state;
    });
  }

  clientInformation(ctx?: OAuthClientInformationContext): OAuthClientInformationMixed | undefined {
    const { clientId, clientSecret } = this.oauth ?? {};
    // A client registered beforehand is the config's, never a stored one.
    if (clientId !== undefined)
      return { client_id: clientId, ...(clientSecret === undefined ? {} : { client_secret: clientSecret }) };
    const entry = this.entry();
    const stored = (ctx ? credentialsOf(entry, ctx.issuer) : this.inUse(entry))?.client;
    // A client registered for another redirect port cannot come back here; register again.
    if (
      stored &&
      "redirect_uris" in stored &&
      this.port !== undefined &&
      !stored.redirect_uris.includes(this.redirectUrl)
    )
      return undefined;
    return stored;
  }

  saveClientInformation(
    client: OAuthClientInformationMixed & { issuer?: string },
    ctx?: OAuthClientInformationContext,
  ): void {
    if (this.running === "registration") this.running = "authorization";
    if (client.client_secret)
      for (const form of credentialForms(client.client_id, client.client_secret)) this.learnSecret(form);
    // The config's client stays in the config: only what the SDK registered (or stamped) is kept.
    if (this.oauth?.clientId !== undefined) return;
    this.store.update(this.server, this.url, (entry) => {
      const issuer = ctx?.issuer ?? client.issuer ?? this.currentIssuer(entry);
      if (issuer === undefined) return;
      editCredentials(entry, issuer).client = client;
    });
  }

  tokens(ctx?: OAuthClientInformationContext): OAuthTokens | undefined {
    const entry = this.entry();
    const tokens = (ctx ? credentialsOf(entry, ctx.issuer) : this.inUse(entry))?.tokens;
    // A refresh keeps the scopes the tokens had; a step-up needs the person to grant more, so
    // the SDK is not shown the refresh token until tokens with the wanted scopes arrive.
    if (tokens && this.wanted && !this.wanted.every((scope) => tokens.scope?.split(" ").includes(scope)))
      return { ...tokens, refresh_token: undefined };
    this.servedRefresh = tokens?.refresh_token;
    return tokens;
  }

  /** A 403 from the server: with `insufficient_scope`, the scopes it wants are noted for the step-up. */
  noteRefusal(challenge: string | null): void {
    if (!challenge || !/error="?insufficient_scope/.test(challenge)) return;
    const scope = /scope="([^"]*)"/.exec(challenge)?.[1];
    if (scope) this.wanted = scope.split(" ").filter((word) => word !== "");
  }

  async saveTokens(
    tokens: OAuthTokens & { issuer?: string },
    ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    for (const secret of [tokens.access_token, tokens.refresh_token, tokens.id_token])
      if (secret) this.learnSecret(secret);
    const issuer = ctx?.issuer ?? tokens.issuer ?? this.currentIssuer(this.entry());
    // The key that signed this token request's proof binds the tokens: it is kept with them.
    const dpopKey = await this.dpopKeys?.keyToSave(credentialsOf(this.entry(), issuer)?.dpopKey);
    this.store.update(this.server, this.url, (entry) => {
      if (issuer === undefined) return;
      const saved = editCredentials(entry, issuer);
      // A refresh answer may leave the refresh token out: the old one still holds.
      saved.tokens = { ...tokens, refresh_token: tokens.refresh_token ?? saved.tokens?.refresh_token };
      saved.savedAt = Date.now();
      if (dpopKey !== undefined) saved.dpopKey = dpopKey;
      entry.issuer = issuer;
    });
    this.wanted = undefined;
    this.settle();
  }

  state(): string {
    this.sentState = randomBytes(32).toString("base64url");
    return this.sentState;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.running = "authorization";
    this.authorizationUrl = authorizationUrl;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error("no sign-in was started in this process");
    this.running = "token exchange";
    return this.verifier;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "verifier") {
      this.verifier = undefined;
      return;
    }
    if (scope === "all") this.dpopKeys?.forget();
    this.store.update(this.server, this.url, (entry) => {
      const current = this.inUse(entry);
      // Another process may have refreshed (rotating the token this one tried): its tokens stay.
      const replacedElsewhere = scope === "tokens" && current?.tokens?.refresh_token !== this.servedRefresh;
      if (current && (scope === "all" || scope === "tokens") && !replacedElsewhere) delete current.tokens;
      if (current && (scope === "all" || scope === "client")) delete current.client;
      if (scope === "all") entry.credentials = entry.credentials.filter((set) => set !== current);
      if (scope === "all" || scope === "discovery") delete entry.discovery;
    });
  }

  private entry(): StoredSignIn | undefined {
    return this.store.get(this.server, this.url);
  }

  /** The issuer in use: the one discovery named (in this process, or stored), else the last to issue tokens. */
  private currentIssuer(entry: StoredSignIn | undefined): string | undefined {
    return this.resolvedIssuer ?? discoveredIssuer(entry?.discovery) ?? entry?.issuer;
  }

  /** The credentials of the issuer in use; never another issuer's. */
  inUse(entry: StoredSignIn | undefined = this.entry()): IssuedCredentials | undefined {
    return credentialsOf(entry, this.currentIssuer(entry));
  }

  /** The port of the loopback redirect URI the stored client was registered with. */
  private registeredPort(): number | undefined {
    const stored = this.inUse()?.client;
    const registered = stored && "redirect_uris" in stored ? stored.redirect_uris[0] : undefined;
    if (registered === undefined) return undefined;
    try {
      const url = new URL(registered);
      return url.hostname === LOOPBACK_HOST && url.port !== "" ? Number(url.port) : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Issuer URLs compared as the spec does, a trailing slash aside. */
export function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
}

/**
 * A client secret as it travels, each form redacted where it is echoed: itself, form-encoded
 * (client_secret_post) and inside an `Authorization: Basic` header (client_secret_basic, the
 * id and secret form-encoded as RFC 6749 says, and as some servers send them unencoded).
 */
export function credentialForms(clientId: string, secret: string): string[] {
  const basic = (id: string, value: string): string => Buffer.from(`${id}:${value}`).toString("base64");
  return [
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    basic(encodeURIComponent(clientId), encodeURIComponent(secret)),
    basic(clientId, secret),
  ];
}
