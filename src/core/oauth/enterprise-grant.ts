import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/client";
import type { OAuthClientInformation, OAuthClientMetadata } from "@modelcontextprotocol/client";
import { isLoopbackHost } from "../config/http-url.js";
import { ServerUnavailableError } from "../errors.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import { CLIENT_INFO } from "../version.js";
import type { ServerOAuth } from "../config/server-oauth.js";
import { BrowserlessGrant } from "./browserless-grant.js";
import { credentialForms, sameIssuer } from "./stored-provider.js";

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";

/**
 * Enterprise-managed authorization (SEP-990, "cross-app access"): the company's identity
 * provider vouches for the person. Its ID token is exchanged at the IdP for an identity
 * assertion grant (ID-JAG, RFC 8693) addressed to the server's authorization server, which
 * trades it for an access token (RFC 7523 jwt-bearer), the client authenticating with its secret.
 * No browser: the ID token comes from the environment, where SSO tooling puts it.
 */
export class EnterpriseGrantProvider extends BrowserlessGrant implements OAuthClientProvider {
  private discovery: OAuthDiscoveryState | undefined;

  constructor(
    private readonly serverUrl: string,
    private readonly oauth: ServerOAuth,
    learnSecret: (secret: string) => void,
    /** How the identity provider is asked: bounded in time and size (ServerAuth's bounds). */
    private readonly askIdp: (endpoint: URL, init: RequestInit) => Promise<Response>,
  ) {
    super("enterprise-managed authorization", learnSecret);
    if (oauth.clientId !== undefined && oauth.clientSecret !== undefined)
      for (const form of credentialForms(oauth.clientId, oauth.clientSecret)) learnSecret(form);
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: CLIENT_INFO.name,
      redirect_uris: [],
      grant_types: [JWT_BEARER],
      token_endpoint_auth_method: "client_secret_basic",
    };
  }

  clientInformation(): OAuthClientInformation {
    return { client_id: this.oauth.clientId ?? "", client_secret: this.oauth.clientSecret ?? "" };
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  /** Exchanges the ID token at the IdP for an ID-JAG, then asks for a jwt-bearer grant with it. */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const endpoint = new URL(this.oauth.idpTokenEndpoint ?? "");
    if (
      endpoint.protocol !== "https:" &&
      !(endpoint.protocol === "http:" && isLoopbackHost(endpoint.hostname))
    )
      throw new ServerUnavailableError(
        `the identity provider's token endpoint must be https, got ${endpoint.protocol}//${endpoint.host}`,
      );
    const audience =
      this.discovery?.authorizationServerMetadata?.issuer ?? this.discovery?.authorizationServerUrl;
    const resource = this.discovery?.resourceMetadata?.resource ?? this.serverUrl;
    if (audience === undefined)
      throw new ServerUnavailableError(
        "the authorization server was not discovered before the token request",
      );
    // The ID token says who the person is: it is exchanged only for the configured server.
    if (!sameIssuer(audience, this.oauth.issuer ?? ""))
      throw new ServerUnavailableError(
        `the server sends sign-ins to ${audience}, but its entry's oauth.issuer is ${this.oauth.issuer ?? "unset"}; the ID token was not sent.`,
      );
    const exchange = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: ID_JAG,
      audience,
      resource,
      subject_token: this.oauth.idToken ?? "",
      subject_token_type: ID_TOKEN,
      client_id: this.oauth.idpClientId ?? "",
      ...(scope ? { scope } : {}),
    });
    const response = await this.askIdp(endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: exchange,
    });
    // Read whole first: an answer past the size limit fails here with its own sentence.
    const body = parseObject(await response.text()) as {
      access_token?: unknown;
      error?: unknown;
      error_description?: unknown;
    };
    if (!response.ok || typeof body.access_token !== "string") {
      const said =
        typeof body.error === "string"
          ? `${body.error}${typeof body.error_description === "string" ? ` (${body.error_description})` : ""}`
          : `HTTP ${response.status}`;
      throw new ServerUnavailableError(
        `the identity provider refused the token exchange: ${sanitizeForTerminal(said.slice(0, 300))}`,
      );
    }
    this.learnSecret(body.access_token);
    return new URLSearchParams({ grant_type: JWT_BEARER, assertion: body.access_token });
  }
}

/** A JSON object from an answer's text, or an empty one when it is not one. */
function parseObject(text: string): object {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}
