import { auth, UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ServerConfig } from "../config/config-types.js";
import { isLoopbackHost } from "../config/http-url.js";
import { errorMessage, McpError } from "../errors.js";
import { openableUrl } from "../policy/openable-url.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import { EnterpriseGrantProvider } from "./enterprise-grant.js";
import { LoopbackRedirect } from "./loopback-redirect.js";
import { serviceAccountProvider } from "./service-account.js";
import { StoredOAuthProvider } from "./stored-provider.js";
import { expiresAt, type OAuthStore, type StoredSignIn } from "./token-store.js";

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
}

const DEFAULT_WAIT_MS = 5 * 60_000;
/** Tokens are refreshed this long before they expire, so no request meets an expired one... */
const REFRESH_AHEAD_MS = 60_000;
/** ...or, for short-lived ones, at half their life; and never in a tight loop. */
const MIN_REFRESH_DELAY_MS = 1000;

function refreshAhead(entry: StoredSignIn): number {
  const lifetime = (entry.tokens?.expires_in ?? 0) * 1000;
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

  private constructor(
    private readonly config: ServerConfig & { url: string },
    private readonly options: OAuthOptions,
  ) {
    const { oauth } = config;
    if (oauth?.grant === "client_credentials") {
      this.provider = serviceAccountProvider(oauth, options.learnSecret);
    } else if (oauth?.grant === "enterprise") {
      this.provider = new EnterpriseGrantProvider(config.url, oauth, options.learnSecret);
    } else {
      this.browser = new StoredOAuthProvider(
        config.name,
        config.url,
        oauth,
        options.store,
        options.learnSecret,
      );
      this.provider = this.browser;
    }
  }

  /**
   * The OAuth of a server entry, or undefined where there is none: stdio servers, `"oauth": false`,
   * and entries that send their own Authorization header (a token the person configured wins).
   */
  static for(config: ServerConfig, options: OAuthOptions | undefined): ServerAuth | undefined {
    if (!options || config.transport === "stdio" || config.url === undefined) return undefined;
    if (config.oauth?.enabled === false) return undefined;
    if (Object.keys(config.headers).some((name) => name.toLowerCase() === "authorization")) return undefined;
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
      if (target.protocol === "http:" && !isLoopbackHost(target.hostname) && !this.config.allowInsecureHttp)
        throw new McpError(
          `refusing to send OAuth requests to ${target.host} over plain http, where anyone on the network path could read the tokens; the server's OAuth metadata must use https (or add "allowInsecureHttp": true to mcpServers.${this.config.name} if you trust that network).`,
        );
      if (target.origin === server.origin) {
        const response = await base(input, init);
        if (response.status === 403) this.browser?.noteRefusal(response.headers.get("www-authenticate"));
        return response;
      }
      if (ownHeaders.length === 0) return base(input, init);
      const headers = new Headers(init?.headers);
      for (const name of ownHeaders) headers.delete(name);
      return base(input, { ...init, headers });
    };
  }

  /** Whether `error` (from connecting or a request) means a person must sign in to go on. */
  needsSignIn(error: unknown): boolean {
    return isUnauthorized(error) && this.browser?.pendingAuthorization !== undefined;
  }

  /**
   * Signs in with a person: shows the page, opens it on a yes, waits for the redirect, and trades
   * the code for tokens. Throws McpError with one sentence naming the step that failed.
   */
  async signIn(fetchFn: FetchLike): Promise<void> {
    const browser = this.browser;
    const page = browser?.pendingAuthorization;
    if (!browser || !page) throw new McpError(`server "${this.config.name}" asked for no sign-in`);
    const name = this.config.name;
    try {
      const person = this.options.person();
      if (!person) throw new McpError(needsLoginSentence(name));
      const address = openableUrl(page.href);
      if (!address)
        throw new McpError(
          `sign-in to "${name}" failed at authorization: the authorization server's page (${sanitizeForTerminal(page.href.slice(0, 120))}) is not an http(s) address mcpterm would open.`,
        );
      const question: SignInQuestion = {
        server: name,
        url: sanitizeForTerminal(address.href),
        domain: address.host,
      };
      const code = await this.awaitCode(browser, question, address.href, person);
      await auth(this.provider, { serverUrl: this.config.url, authorizationCode: code, fetchFn });
    } catch (error) {
      if (error instanceof McpError) throw error;
      throw new McpError(`sign-in to "${name}" failed at token exchange: ${errorMessage(error)}`, {
        cause: error,
      });
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
    if (error instanceof McpError) return undefined;
    const name = this.config.name;
    const step = this.browser?.step;
    if (this.needsSignIn(error)) return needsLoginSentence(name);
    if (step === undefined) return undefined;
    const entry = this.options.store.get(name, this.config.url);
    const nothingFound =
      !entry?.discovery?.resourceMetadata && !entry?.discovery?.authorizationServerMetadata;
    if (nothingFound && (step === "discovery" || step === "registration"))
      return (
        `server "${name}" answered 401 (it needs authorization) but offers no way to sign in: it publishes no OAuth metadata and registering a client failed (${errorMessage(error)}). ` +
        `If it takes a token, set it in mcpServers.${name}.headers (for example "Authorization": "Bearer \${${envName(name)}_TOKEN}"); if you have a registered client, add "oauth": { "clientId": … }.`
      );
    return `sign-in to "${name}" failed at ${step}: ${errorMessage(error)}`;
  }

  /**
   * Refreshes the tokens a little before they expire, while the connection lives. A failed
   * refresh is left to the next request: its 401 starts the usual way back in.
   */
  scheduleRefresh(fetchFn: FetchLike): void {
    clearTimeout(this.refreshTimer);
    const entry = this.options.store.get(this.config.name, this.config.url);
    const expiry = entry ? expiresAt(entry) : undefined;
    if (!this.browser || expiry === undefined || !entry?.tokens?.refresh_token) return;
    const delay = Math.max(MIN_REFRESH_DELAY_MS, expiry - refreshAhead(entry) - Date.now());
    this.refreshTimer = setTimeout(() => {
      void auth(this.provider, { serverUrl: this.config.url, fetchFn })
        .then(() => this.scheduleRefresh(fetchFn))
        .catch(() => undefined)
        .finally(() => this.browser?.settle());
    }, delay);
    this.refreshTimer.unref();
  }

  /** Whether stored tokens are about to expire and can be refreshed: refresh before connecting. */
  shouldRefreshNow(): boolean {
    const entry = this.options.store.get(this.config.name, this.config.url);
    const expiry = entry ? expiresAt(entry) : undefined;
    if (!this.browser || !entry || expiry === undefined || entry.tokens?.refresh_token === undefined)
      return false;
    return expiry - refreshAhead(entry) <= Date.now();
  }

  async refreshNow(fetchFn: FetchLike): Promise<void> {
    try {
      await auth(this.provider, { serverUrl: this.config.url, fetchFn });
    } catch {
      // The connection's 401 will say what is wrong, with the step.
    } finally {
      this.browser?.settle();
    }
  }

  /** Forgets this server's sign-ins: its tokens, registered client and what discovery found. */
  forget(): void {
    this.options.store.forget(this.config.name);
    void this.provider.invalidateCredentials?.("all");
  }

  /** Stops refreshing; a sign-in still waiting for the browser gives up. */
  close(): void {
    clearTimeout(this.refreshTimer);
    this.waiting?.abort(new McpError(`sign-in to "${this.config.name}" was stopped: the server is closing.`));
  }

  private async awaitCode(
    browser: StoredOAuthProvider,
    question: SignInQuestion,
    address: string,
    person: SignInPerson,
  ): Promise<string> {
    const name = this.config.name;
    const port = browser.redirectPort ?? 0;
    let redirect: LoopbackRedirect;
    try {
      redirect = await LoopbackRedirect.listen(port, browser.expectedState ?? "");
    } catch (error) {
      throw new McpError(
        `sign-in to "${name}" failed at authorization: could not listen for the browser on 127.0.0.1:${port} (${errorMessage(error)}); close what uses that port, or run \`mcpterm auth logout ${name}\` to register again on another one.`,
      );
    }
    const stop = new AbortController();
    this.waiting = stop;
    const timer = setTimeout(
      () =>
        stop.abort(
          new McpError(
            `sign-in to "${name}" failed at authorization: the browser did not come back within ${Math.round((this.options.waitMs ?? DEFAULT_WAIT_MS) / 1000)} s.`,
          ),
        ),
      this.options.waitMs ?? DEFAULT_WAIT_MS,
    );
    let endWait: (() => void) | undefined;
    try {
      const choice = await person.confirm(question, stop.signal);
      if (choice === "decline")
        throw new McpError(
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
        stop.abort(new McpError(`sign-in to "${name}" was cancelled.`)),
      );
      const answer = await redirect.wait(stop.signal);
      if ("error" in answer)
        throw new McpError(
          `sign-in to "${name}" failed at authorization: the authorization server said ${sanitizeForTerminal(answer.error.slice(0, 100))}${answer.description ? ` (${sanitizeForTerminal(answer.description.slice(0, 300))})` : ""}.`,
        );
      return answer.code;
    } finally {
      clearTimeout(timer);
      this.waiting = undefined;
      endWait?.();
      await redirect.close();
    }
  }
}

/** The SDK's "a sign-in is needed", also when a classified call failure carries it as its cause. */
function isUnauthorized(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++)
    if (cause instanceof UnauthorizedError) return true;
  return false;
}

/** One-shot mode, or nobody to ask: which command signs in. */
export function needsLoginSentence(server: string): string {
  return `server "${server}" needs you to sign in (OAuth); run \`mcpterm auth login ${server}\` (or /mcp login ${server} in the TUI), then try again.`;
}

function envName(server: string): string {
  return server.toUpperCase().replace(/[^A-Z0-9]+/g, "_");
}
