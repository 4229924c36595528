import { auth, type FetchLike, type OAuthClientProvider } from "@modelcontextprotocol/client";
import type { ServerConfig } from "../config/config-types.js";
import { isLoopbackHost } from "../config/http-url.js";
import { errorMessage, ServerUnavailableError } from "../errors.js";
import { openableUrl } from "../policy/openable-url.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import { isFreshTokenRefused, isUnauthorized, metadataProblems, shortError } from "./auth-failures.js";
import { AuthRequestTimedOut, boundedRequest, type RequestBounds } from "./auth-requests.js";
import { bindTokensWithDpop } from "./dpop-binding.js";
import { EnterpriseGrantProvider } from "./enterprise-grant.js";
import { checkErrorResponseIssuer, issuerRefusal } from "./issuer-check.js";
import { LoopbackRedirect } from "./loopback-redirect.js";
import {
  freshTokenRefusedSentence,
  invalidMetadataSentence,
  needsLoginSentence,
  noOAuthSentence,
} from "./sign-in-sentences.js";
import { serviceAccountProvider } from "./service-account.js";
import { signInMode } from "./sign-in-mode.js";
import { StoredOAuthProvider } from "./stored-provider.js";
import { WorkloadIdentityProvider } from "./workload-identity.js";
import { expiresAt, type IssuedCredentials } from "./issued-credentials.js";
import type { OAuthStore } from "./token-store.js";

/** The page a person is asked to open to sign in to a server, ready to show. */
export interface SignInQuestion {
  server: string;
  /** The whole address, sanitized for the terminal. */
  url: string;
  /** The host (with its port) the page is on: the part to check. */
  domain: string;
}

/** The person who signs in: the TUI, or `mcpterm auth login` at a terminal. */
export interface SignInPerson {
  /** "open": open the page in the browser now; "show": the person opens it; "decline": no sign-in. */
  confirm(question: SignInQuestion, signal: AbortSignal): Promise<"open" | "show" | "decline">;
  /** The wait for the browser began; `cancel` gives it up. Returns what ends its display. */
  waiting(question: SignInQuestion, opened: boolean, cancel: () => void): () => void;
}

export interface OAuthOptions {
  store: OAuthStore;
  /** A token, refresh token or client secret just learned: redacted everywhere from now on. */
  learnSecret: (secret: string) => void;
  /** Who signs in, at the moment one is needed; undefined (one-shot mode): never in a browser. */
  person: () => SignInPerson | undefined;
  openUrl: (address: string) => Promise<void>;
  /** How long a sign-in waits for the browser to come back. */
  waitMs?: number;
  /** How long one request to the authorization server may take (discovery, registration, tokens). */
  requestTimeoutMs?: number;
}

const DEFAULT_WAIT_MS = 5 * 60_000;
const AUTH_REQUEST_MS = 30_000;
/** An identity provider's token exchange: a quick request, given much less than a server's start. */
const IDP_REQUEST_MS = 10_000;
/** Tokens are refreshed this long before they expire, so no request meets an expired one... */
const REFRESH_AHEAD_MS = 60_000;
/** ...or, for short-lived ones, at half their life; and never in a tight loop. */
const MIN_REFRESH_DELAY_MS = 1000;

function refreshAhead(credentials: IssuedCredentials): number {
  const lifetime = (credentials.tokens?.expires_in ?? 0) * 1000;
  return Math.min(REFRESH_AHEAD_MS, lifetime / 2);
}

/**
 * Everything OAuth for one remote server: the SDK provider it hands the transport, the sign-in
 * with a person (page shown, opened only on a yes, loopback redirect awaited with a cancel),
 * refreshing before expiry, and a sentence for every way it can fail.
 */
export class ServerAuth {
  readonly provider: OAuthClientProvider;
  private readonly browser: StoredOAuthProvider | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  /** The sign-in waiting for the browser now, which closing the connection stops. */
  private waiting: AbortController | undefined;
  /** Aborts the OAuth requests in flight when the connection closes (Ctrl+C included). */
  private stopping = new AbortController();
  /** A discovery request of the latest round given up for time (see fetch). */
  private discoveryTimedOut: string | undefined;

  private constructor(
    private readonly config: ServerConfig & { url: string },
    private readonly options: OAuthOptions,
  ) {
    const { oauth } = config;
    if (oauth?.grant === "client_credentials") {
      this.provider = serviceAccountProvider(oauth, options.learnSecret);
    } else if (oauth?.grant === "workload") {
      this.provider = new WorkloadIdentityProvider(oauth, options.learnSecret);
    } else if (oauth?.grant === "enterprise") {
      this.provider = new EnterpriseGrantProvider(config.url, oauth, options.learnSecret, (endpoint, init) =>
        boundedRequest(
          fetch,
          endpoint,
          init,
          this.bounds(`the identity provider ${endpoint.host}`, this.idpTimeoutMs),
        ),
      );
    } else {
      this.browser = new StoredOAuthProvider(
        config.name,
        config.url,
        oauth,
        options.store,
        options.learnSecret,
        () => options.person() !== undefined,
        config.typed === true,
      );
      this.provider = this.browser;
    }
    // A browser sign-in keeps its DPoP key with its tokens (StoredOAuthProvider); others need none kept.
    if (oauth?.dpop && !this.browser) bindTokensWithDpop(this.provider);
  }

  /**
   * The OAuth of a server entry, or undefined where there is none: stdio servers, `"oauth": false`,
   * and entries that send their own Authorization header (a token the person configured wins).
   */
  static for(config: ServerConfig, options: OAuthOptions | undefined): ServerAuth | undefined {
    const mode = signInMode(config);
    if (!options || config.url === undefined || mode === "local" || mode === "off" || mode === "own header")
      return undefined;
    return new ServerAuth({ ...config, url: config.url }, options);
  }

  /**
   * The transport's fetch: what goes to another origin (the authorization server) never carries
   * the entry's own headers, and OAuth never travels in clear text to a host off this machine.
   */
  fetch(base: FetchLike): FetchLike {
    const server = new URL(this.config.url);
    const ownHeaders = Object.keys(this.config.headers);
    return async (input, init) => {
      const target = new URL(input instanceof URL ? input.href : input);
      const sameOrigin = target.origin === server.origin;
      // Beside the MCP endpoint itself (whose messages go as the entry allows), a POST to the
      // server's origin is OAuth's: a registration (which may be answered with a client secret) or
      // a token request, carrying secrets as a token does; only discovery's GETs go there in clear.
      const oauthPost =
        (init?.method ?? "GET").toUpperCase() !== "GET" &&
        !(sameOrigin && target.pathname === server.pathname);
      const carriesSecrets = new Headers(init?.headers).has("authorization") || oauthPost;
      if (this.inClear(target, carriesSecrets))
        throw new ServerUnavailableError(
          `refusing to send OAuth requests to ${target.host} over plain http, where anyone on the network path could read the tokens; the server's OAuth metadata must use https (or add "allowInsecureHttp": true to mcpServers.${this.config.name} if you trust that network).`,
        );
      if (sameOrigin && target.pathname === server.pathname) {
        const response = await base(input, init);
        if (response.status === 401) {
          // A new round of discovery follows: what the last one met is not this one's.
          this.discoveryTimedOut = undefined;
          await this.browser?.choosePort();
          // Tokens refused: the resource may have moved to another authorization server
          // (SEP-2352), which only a fresh discovery finds; the SDK never forgets it itself.
          const refused = new Headers(init?.headers).get("authorization");
          if (refused !== null) this.browser?.tokenRefused(refused);
        }
        if (response.status === 403) this.browser?.noteRefusal(response.headers.get("www-authenticate"));
        return response;
      }
      // Discovery, registration and tokens: bounded in time and size, given up when the connection closes.
      const headers = new Headers(init?.headers);
      if (!sameOrigin) for (const name of ownHeaders) headers.delete(name);
      // Discovery's GETs are bounded well inside the start-up time, as an identity provider's
      // exchange is, so a metadata host that never finishes answering is named, not the start.
      const discovery = (init?.method ?? "GET").toUpperCase() === "GET";
      if (!discovery)
        return boundedRequest(
          base,
          input,
          { ...init, headers },
          this.bounds(target.host, this.requestTimeoutMs),
        );
      try {
        return await boundedRequest(
          base,
          input,
          { ...init, headers },
          this.bounds(target.host, this.discoveryTimeoutMs),
        );
      } catch (error) {
        // The SDK takes a metadata request that failed for metadata that is not there, and goes
        // on to guess: kept, so the sentence names the host that did not answer (see describe).
        if (error instanceof AuthRequestTimedOut) this.discoveryTimedOut = error.message;
        throw error;
      }
    };
  }

  private get requestTimeoutMs(): number {
    return this.options.requestTimeoutMs ?? AUTH_REQUEST_MS;
  }

  /** One discovery request's limit: half the server's start-up time at most (see fetch). */
  private get discoveryTimeoutMs(): number {
    return Math.min(this.requestTimeoutMs, this.config.startupTimeoutMs / 2);
  }

  /**
   * The identity provider's own limit, well inside the server's start-up time, so that a silent
   * identity provider is named as such rather than the server being blamed for not starting.
   */
  private get idpTimeoutMs(): number {
    return Math.min(IDP_REQUEST_MS, this.requestTimeoutMs, this.config.startupTimeoutMs / 2);
  }

  /** The bounds of one OAuth request to `who`; read when it is sent (`close` renews `stopping`). */
  private bounds(who: string, timeoutMs: number): RequestBounds {
    return {
      who,
      timeoutMs,
      stop: this.stopping.signal,
      givenUp: `sign-in to "${this.config.name}" was given up.`,
    };
  }

  /**
   * Whether OAuth sent to `target` would travel in clear text to a host off this machine: plain
   * http to another origin than the server's, or with a secret (a token, a registration, a
   * sign-in) to any, unless the entry allows it.
   */
  private inClear(target: URL, carriesToken: boolean): boolean {
    const sameOrigin = target.origin === new URL(this.config.url).origin;
    return (
      target.protocol === "http:" &&
      !isLoopbackHost(target.hostname) &&
      !this.config.allowInsecureHttp &&
      (!sameOrigin || carriesToken)
    );
  }

  /** Whether `error` (from connecting or a request) means a person must sign in to go on. */
  needsSignIn(error: unknown): boolean {
    return isUnauthorized(error) && this.browser?.pendingAuthorization !== undefined;
  }

  /**
   * Signs in with a person: shows the page, opens it on a yes, waits for the redirect, and trades
   * the code for tokens. Throws ServerUnavailableError with one sentence naming the step that failed.
   */
  async signIn(fetchFn: FetchLike): Promise<void> {
    const browser = this.browser;
    const page = browser?.pendingAuthorization;
    if (!browser || !page)
      throw new ServerUnavailableError(`server "${this.config.name}" asked for no sign-in`);
    const name = this.config.name;
    try {
      const person = this.options.person();
      if (!person) throw new ServerUnavailableError(needsLoginSentence(name, this.config.typed === true));
      const address = openableUrl(page.href);
      if (!address)
        throw new ServerUnavailableError(
          `sign-in to "${name}" failed at authorization: the authorization server's page (${sanitizeForTerminal(page.href.slice(0, 120))}) is not an http(s) address mcpterm would open.`,
        );
      // The page carries the state and the PKCE challenge, and then the person's sign-in: the
      // rule for OAuth requests holds for it too, before anyone is asked to open it.
      if (this.inClear(address, true))
        throw new ServerUnavailableError(
          `sign-in to "${name}" failed at authorization: refusing to offer the sign-in page on ${address.host} over plain http, where anyone on the network path could read it and what you type into it; the server's OAuth metadata must use https (or add "allowInsecureHttp": true to mcpServers.${name} if you trust that network).`,
        );
      const question: SignInQuestion = {
        server: name,
        url: sanitizeForTerminal(address.href),
        domain: address.host,
      };
      const { code, iss } = await this.awaitCode(browser, question, address.href, person);
      await auth(this.provider, { serverUrl: this.config.url, authorizationCode: code, iss, fetchFn });
    } catch (error) {
      if (error instanceof ServerUnavailableError) throw error;
      const refusal = issuerRefusal(name, error);
      if (refusal !== undefined) throw new ServerUnavailableError(refusal, { cause: error });
      throw new ServerUnavailableError(
        `sign-in to "${name}" failed at token exchange: ${shortError(error)}`,
        {
          cause: error,
        },
      );
    } finally {
      browser.settle();
    }
    this.scheduleRefresh(fetchFn);
  }

  /**
   * The sentence for a connection or request that failed on OAuth, or undefined when `error`
   * has nothing to do with it.
   */
  describe(error: unknown): string | undefined {
    if (error instanceof ServerUnavailableError) return undefined;
    const name = this.config.name;
    const step = this.browser?.step;
    const refusal = issuerRefusal(name, error);
    if (refusal !== undefined) return refusal;
    if (this.needsSignIn(error)) return needsLoginSentence(name, this.config.typed === true);
    if (isFreshTokenRefused(error)) return freshTokenRefusedSentence(name);
    const invalid = metadataProblems(error);
    if (invalid !== undefined) return invalidMetadataSentence(name, invalid, this.config.typed === true);
    if (step === undefined) return undefined;
    const entry = this.options.store.get(name, this.config.url);
    const foundNothing =
      !entry?.discovery?.resourceMetadata &&
      !entry?.discovery?.authorizationServerMetadata &&
      (step === "discovery" || step === "registration");
    // A host that did not answer is not one that has nothing to say.
    const timedOut = timedOutRequest(error)
      ? shortError(error)
      : foundNothing
        ? this.discoveryTimedOut
        : undefined;
    if (timedOut !== undefined)
      return `sign-in to "${name}" failed at ${foundNothing ? "discovery" : step}: ${timedOut} (a fault of that host; try again later, or ask the server's owner)`;
    if (foundNothing) return noOAuthSentence(name, shortError(error), this.config.typed === true);
    return `sign-in to "${name}" failed at ${step}: ${shortError(error)}`;
  }

  /**
   * Refreshes the tokens a little before they expire, while the connection lives. A failed
   * refresh is left to the next request: its 401 starts the usual way back in.
   */
  scheduleRefresh(fetchFn: FetchLike): void {
    clearTimeout(this.refreshTimer);
    const stored = this.browser?.inUse();
    const expiry = expiresAt(stored);
    if (!stored || expiry === undefined || !stored.tokens?.refresh_token) return;
    const delay = Math.max(MIN_REFRESH_DELAY_MS, expiry - refreshAhead(stored) - Date.now());
    this.refreshTimer = setTimeout(() => {
      void this.refreshNow(fetchFn).then(() => {
        // Only new tokens get a new timer: a refresh that failed is left to the next 401.
        if ((expiresAt(this.browser?.inUse()) ?? 0) > expiry) this.scheduleRefresh(fetchFn);
      });
    }, delay);
    this.refreshTimer.unref();
  }

  /** Whether stored tokens are about to expire and can be refreshed: refresh before connecting. */
  shouldRefreshNow(): boolean {
    const stored = this.browser?.inUse();
    const expiry = expiresAt(stored);
    if (!stored || expiry === undefined || stored.tokens?.refresh_token === undefined) return false;
    return expiry - refreshAhead(stored) <= Date.now();
  }

  /**
   * Refreshes now, holding the store's lock: another mcpterm process may be refreshing the same
   * tokens, and with rotating refresh tokens only one of two may. Whoever gets the lock second
   * finds fresh tokens and leaves them be.
   */
  async refreshNow(fetchFn: FetchLike): Promise<void> {
    try {
      await this.options.store.locked(async () => {
        if (this.shouldRefreshNow()) await auth(this.provider, { serverUrl: this.config.url, fetchFn });
      });
    } catch {
      // The connection's 401 will say what is wrong, with the step.
    } finally {
      this.browser?.settle();
    }
  }

  /** Forgets this server's sign-ins: its tokens, registered client and what discovery found. */
  async forget(): Promise<void> {
    await this.options.store.forget(this.config.name);
    void this.provider.invalidateCredentials?.("all");
  }

  /** Stops refreshing; a sign-in waiting for the browser, or an OAuth request in flight, gives up. */
  close(): void {
    clearTimeout(this.refreshTimer);
    this.waiting?.abort(new ServerUnavailableError(`sign-in to "${this.config.name}" was given up.`));
    this.stopping.abort();
    this.stopping = new AbortController();
  }

  private async awaitCode(
    browser: StoredOAuthProvider,
    question: SignInQuestion,
    address: string,
    person: SignInPerson,
  ): Promise<{ code: string; iss: string | undefined }> {
    const name = this.config.name;
    const port = browser.redirectPort ?? 0;
    let redirect: LoopbackRedirect;
    try {
      redirect = await LoopbackRedirect.listen(port, browser.expectedState ?? "");
    } catch (error) {
      throw new ServerUnavailableError(
        `sign-in to "${name}" failed at authorization: could not listen for the browser on 127.0.0.1:${port} (${errorMessage(error)}); close what uses that port, or run \`mcpterm auth logout ${name}\` to register again on another one.`,
      );
    }
    const stop = new AbortController();
    this.waiting = stop;
    const timer = setTimeout(
      () =>
        stop.abort(
          new ServerUnavailableError(
            `sign-in to "${name}" failed at authorization: the browser did not come back within ${Math.round((this.options.waitMs ?? DEFAULT_WAIT_MS) / 1000)} s.`,
          ),
        ),
      this.options.waitMs ?? DEFAULT_WAIT_MS,
    );
    let endWait: (() => void) | undefined;
    try {
      const choice = await person.confirm(question, stop.signal);
      if (choice === "decline")
        throw new ServerUnavailableError(
          `sign-in to "${name}" was declined; the server stays unavailable until you sign in (/mcp login ${name}, or \`mcpterm auth login ${name}\`).`,
        );
      let opened = false;
      if (choice === "open") {
        opened = await this.options.openUrl(address).then(
          () => true,
          () => false,
        );
      }
      endWait = person.waiting(question, opened, () =>
        stop.abort(new ServerUnavailableError(`sign-in to "${name}" was cancelled.`)),
      );
      const answer = await redirect.wait(stop.signal);
      if ("error" in answer) {
        // An error from another authorization server is neither acted on nor shown (RFC 9207).
        const discovery = this.options.store.get(name, this.config.url)?.discovery;
        try {
          checkErrorResponseIssuer(answer.iss, discovery);
        } catch (error) {
          throw new ServerUnavailableError(issuerRefusal(name, error) ?? errorMessage(error), {
            cause: error,
          });
        }
        throw new ServerUnavailableError(
          `sign-in to "${name}" failed at authorization: the authorization server said ${sanitizeForTerminal(answer.error.slice(0, 100))}${answer.description ? ` (${sanitizeForTerminal(answer.description.slice(0, 300))})` : ""}.`,
        );
      }
      return answer;
    } finally {
      clearTimeout(timer);
      this.waiting = undefined;
      endWait?.();
      await redirect.close();
    }
  }
}

/** Whether an OAuth request in `error`'s causes was given up for time (AuthRequestTimedOut). */
function timedOutRequest(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause)
    if (cause instanceof AuthRequestTimedOut) return true;
  return false;
}
