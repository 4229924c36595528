import type { ConfigFieldReader, JsonObject } from "./config-fields.js";
import { keyPath } from "./config-fields.js";
import type { KeyRule } from "./unknown-keys.js";
import { unknownKeySentences } from "./unknown-keys.js";

/**
 * How mcpterm signs in to one remote server, from its entry's `"oauth"`. Without the key a
 * remote server that answers 401 is signed in to as the MCP authorization spec describes
 * (discovery, then a client ID metadata document or dynamic registration, then a browser).
 */
export interface ServerOAuth {
  /** `"oauth": false` (or `enabled: false`): never sign in; a 401 is reported as it is. */
  enabled: boolean;
  /**
   * `authorization_code`: a person signs in in a browser (PKCE, loopback redirect).
   * `client_credentials`: a service account signs in by itself (CI), with a secret or a key.
   * `enterprise`: the company's identity provider vouches for the person (SEP-990): its ID token
   * is exchanged for an assertion the authorization server accepts; no browser.
   * `workload`: workload identity federation (SEP-1933): the JWT the platform issued the
   * workload is the grant (RFC 7523 jwt-bearer); no browser, no secret.
   */
  grant: "authorization_code" | "client_credentials" | "enterprise" | "workload";
  /**
   * The authorization server (its issuer URL) this entry's credentials belong to: a client secret,
   * key or ID token is sent to no other, whatever the server's metadata says. Required for the
   * grants that send credentials without a person (client_credentials, enterprise).
   */
  issuer?: string;
  /** A client registered beforehand with the authorization server; without it mcpterm registers one. */
  clientId?: string;
  clientSecret?: string;
  /** Asked for instead of what the server suggests. */
  scopes?: string[];
  /** The loopback port of the redirect, for clients registered with a fixed redirect URI. */
  redirectPort?: number;
  /** An https URL of a client ID metadata document, used where the authorization server accepts one. */
  clientMetadataUrl?: string;
  /** For client_credentials with private_key_jwt: a PEM private key (through `${VAR}`). */
  privateKey?: string;
  /** The JWT signing algorithm of `privateKey` (default ES256). */
  signingAlgorithm?: string;
  /** For `enterprise`: the identity provider's token endpoint, its client id for mcpterm, and the ID token (through `${VAR}`). */
  idpTokenEndpoint?: string;
  idpClientId?: string;
  idToken?: string;
  /** For `workload`: the workload's JWT (through `${VAR}`), or the file the platform keeps it in. */
  assertion?: string;
  assertionFile?: string;
  /** DPoP-bound tokens (RFC 9449, SEP-1932): every token request and use carries a fresh proof. */
  dpop?: boolean;
}

export const OAUTH_KEYS: KeyRule = {
  known: [
    ...[
      "enabled",
      "grant",
      "issuer",
      "clientId",
      "clientSecret",
      "scopes",
      "redirectPort",
      "clientMetadataUrl",
    ],
    ...["privateKey", "signingAlgorithm", "idpTokenEndpoint", "idpClientId", "idToken"],
    ...["assertion", "assertionFile", "dpop"],
  ],
  // gemini-cli's oauth entries carry keys of their own (authorizationUrl, tokenUrl, audiences).
  nearMissesOnly: true,
};

const GRANTS = ["authorization_code", "client_credentials", "enterprise", "workload"] as const;
const HIGHEST_PORT = 65_535;

/**
 * Reads an entry's `"oauth"` (`true`, `false` or an object); `expand` resolves `${VAR}` in its
 * strings. Undefined when the entry has none: the default, sign-in on a 401, applies.
 */
export function parseServerOAuth(
  raw: JsonObject,
  here: string,
  reader: ConfigFieldReader,
  expand: (text: string, at: string) => string,
): ServerOAuth | undefined {
  const value = raw.oauth;
  if (value == null) return undefined;
  const at = keyPath(here, "oauth");
  if (typeof value === "boolean") return { enabled: value, grant: "authorization_code" };
  const entry = reader.object(value, at);
  for (const sentence of unknownKeySentences(entry, at, OAUTH_KEYS)) reader.warn(sentence);
  const text = (key: string): string | undefined => {
    const found = reader.optionalString(entry, key, at);
    return found === undefined ? undefined : expand(found, keyPath(at, key));
  };
  const oauth: ServerOAuth = {
    enabled: reader.optionalBoolean(entry, "enabled", at) ?? true,
    grant:
      entry.grant == null ? "authorization_code" : reader.oneOf(entry.grant, GRANTS, keyPath(at, "grant")),
  };
  const issuer = text("issuer");
  if (issuer !== undefined) {
    if (!URL.canParse(issuer) || !/^https?:$/.test(new URL(issuer).protocol))
      reader.fail(keyPath(at, "issuer"), "the authorization server's issuer URL", JSON.stringify(issuer));
    oauth.issuer = issuer;
  }
  const clientId = text("clientId");
  if (clientId !== undefined) oauth.clientId = clientId;
  const clientSecret = text("clientSecret");
  if (clientSecret !== undefined) oauth.clientSecret = clientSecret;
  const privateKey = text("privateKey");
  if (privateKey !== undefined) oauth.privateKey = privateKey;
  const signingAlgorithm = text("signingAlgorithm");
  if (signingAlgorithm !== undefined) oauth.signingAlgorithm = signingAlgorithm;
  const idpTokenEndpoint = text("idpTokenEndpoint");
  if (idpTokenEndpoint !== undefined) oauth.idpTokenEndpoint = idpTokenEndpoint;
  const idpClientId = text("idpClientId");
  if (idpClientId !== undefined) oauth.idpClientId = idpClientId;
  const idToken = text("idToken");
  if (idToken !== undefined) oauth.idToken = idToken;
  const assertion = text("assertion");
  if (assertion !== undefined) oauth.assertion = assertion;
  const assertionFile = text("assertionFile");
  if (assertionFile !== undefined) oauth.assertionFile = assertionFile;
  const dpop = reader.optionalBoolean(entry, "dpop", at);
  if (dpop !== undefined) oauth.dpop = dpop;
  const scopes = reader.optionalStringArray(entry, "scopes", at);
  if (scopes !== undefined)
    oauth.scopes = scopes.map((scope, index) => expand(scope, `${keyPath(at, "scopes")}[${index}]`));
  const redirectPort = reader.optionalPositiveInteger(entry, "redirectPort", at);
  if (redirectPort !== undefined) {
    if (redirectPort > HIGHEST_PORT)
      reader.fail(keyPath(at, "redirectPort"), "a port from 1 to 65535", String(redirectPort));
    oauth.redirectPort = redirectPort;
  }
  const clientMetadataUrl = text("clientMetadataUrl");
  if (clientMetadataUrl !== undefined) {
    if (!isMetadataDocumentUrl(clientMetadataUrl))
      reader.fail(
        keyPath(at, "clientMetadataUrl"),
        "an https URL with a path",
        JSON.stringify(clientMetadataUrl),
      );
    oauth.clientMetadataUrl = clientMetadataUrl;
  }
  const missing = missingForGrant(oauth, at);
  if (missing !== undefined) reader.error(missing);
  return oauth;
}

/** What a grant cannot do without: client credentials need an id and a secret or key. */
function missingForGrant(oauth: ServerOAuth, at: string): string | undefined {
  if (!oauth.enabled || oauth.grant === "authorization_code") return undefined;
  if (oauth.issuer === undefined)
    return `${at} has grant "${oauth.grant}" but no "issuer"; name the authorization server its credentials are for (its issuer URL), so they are never sent to another.`;
  if (oauth.grant === "enterprise") {
    const needed = ["clientId", "clientSecret", "idpTokenEndpoint", "idpClientId", "idToken"] as const;
    const absent = needed.filter((key) => oauth[key] === undefined);
    return absent.length === 0
      ? undefined
      : `${at} has grant "enterprise" but no ${absent.map((key) => `"${key}"`).join(", ")}; enterprise-managed sign-in needs all of ${needed.join(", ")}.`;
  }
  if (oauth.grant === "workload") {
    if (oauth.clientId === undefined)
      return `${at} has grant "workload" but no "clientId"; add the id the authorization server knows the workload by.`;
    return (oauth.assertion === undefined) === (oauth.assertionFile === undefined)
      ? `${at} has grant "workload" but ${oauth.assertion === undefined ? "neither" : "both"} "assertion" ${oauth.assertion === undefined ? "nor" : "and"} "assertionFile"; give one: the workload's JWT through \${VAR}, or the file the platform keeps it in.`
      : undefined;
  }
  if (oauth.clientId === undefined)
    return `${at} has grant "client_credentials" but no "clientId"; add the id the authorization server gave the service account.`;
  if (oauth.clientSecret === undefined && oauth.privateKey === undefined)
    return `${at} has grant "client_credentials" but neither "clientSecret" nor "privateKey"; give one, through \${VAR}.`;
  return undefined;
}

/** SEP-991: a client ID metadata document lives at an https URL with a path. */
function isMetadataDocumentUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "https:" && url.pathname !== "/" && url.pathname !== "";
  } catch {
    return false;
  }
}
