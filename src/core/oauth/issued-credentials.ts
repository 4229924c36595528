import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { OAuthClientInformationFullSchema, OAuthTokensSchema } from "@modelcontextprotocol/core";

/**
 * What one authorization server issued for one server: the client registered there and the
 * tokens it gave, kept under its issuer. A client ID belongs to the authorization server that
 * issued it (RFC 6749 §2.2), and so do tokens: a server that moves to another authorization
 * server and back finds its first registration and sign-in where it left them.
 */
export interface IssuedCredentials {
  /** Absent only for credentials of an old store whose issuer nothing recorded. */
  issuer?: string;
  /** Keeps the SDK's `issuer` stamp. */
  client?: StoredOAuthClientInformation;
  /** Keeps the SDK's `issuer` stamp. */
  tokens?: StoredOAuthTokens;
  /** When the tokens were saved (ms since the epoch); with `expires_in`, when they expire. */
  savedAt?: number;
  /** The private key (JWK) the tokens are bound to, for DPoP (RFC 9449): without it they are useless. */
  dpopKey?: JsonWebKey;
}

/** What mcpterm keeps of one server's sign-in. */
export interface StoredSignIn {
  server: string;
  /** The server's URL: credentials are bound to it, so a renamed or redirected entry gets none. */
  url: string;
  discovery?: OAuthDiscoveryState;
  /** The issuer whose tokens were saved last: the one in use while discovery names none. */
  issuer?: string;
  /** Per authorization server, by issuer. */
  credentials: IssuedCredentials[];
}

/** The issuer that discovery named: the one credentials are used with now. */
export function discoveredIssuer(discovery: OAuthDiscoveryState | undefined): string | undefined {
  return discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
}

/**
 * Issuers compared as the SDK compares its stamps (SEP-2352): one trailing `/` aside, since
 * it derives an issuer from a URL (always slash-suffixed) that metadata may name without one.
 */
export function issuersMatch(a: string, b: string): boolean {
  return a.replace(/\/$/, "") === b.replace(/\/$/, "");
}

/**
 * The credentials `issuer` issued, or those of an old store whose issuer is not known, while
 * the entry names no issuer other than `issuer`: once it does, they are not that issuer's to use.
 */
export function credentialsOf(
  entry: StoredSignIn | undefined,
  issuer: string | undefined,
): IssuedCredentials | undefined {
  if (!entry) return undefined;
  if (issuer !== undefined) {
    const own = entry.credentials.find((set) => set.issuer !== undefined && issuersMatch(set.issuer, issuer));
    if (own) return own;
    const known = knownIssuer(entry);
    if (known !== undefined && !issuersMatch(known, issuer)) return undefined;
  }
  return entry.credentials.find((set) => set.issuer === undefined);
}

/** The issuer an entry names: discovery's, else the one that issued tokens last. */
function knownIssuer(entry: StoredSignIn): string | undefined {
  return discoveredIssuer(entry.discovery) ?? entry.issuer;
}

/**
 * Files credentials whose issuer nothing recorded under the issuer the entry names (the first
 * one discovery named since the upgrade), unless that issuer has its own: from then on they are
 * that issuer's alone, and a server that later names another does not get them.
 */
function bindUnknownIssuer(entry: StoredSignIn): void {
  const known = knownIssuer(entry);
  const unknown = entry.credentials.find((set) => set.issuer === undefined);
  if (known === undefined || !unknown) return;
  if (entry.credentials.some((set) => set.issuer !== undefined && issuersMatch(set.issuer, known))) return;
  unknown.issuer = known;
  if (unknown.client) unknown.client = { ...unknown.client, issuer: unknown.client.issuer ?? known };
  if (unknown.tokens) unknown.tokens = { ...unknown.tokens, issuer: unknown.tokens.issuer ?? known };
}

/**
 * The credentials in use: those of the issuer discovery names now, else of the one that issued
 * tokens last. Never another issuer's: a token is not sent once the server names someone else.
 */
export function credentialsInUse(entry: StoredSignIn | undefined): IssuedCredentials | undefined {
  return credentialsOf(entry, discoveredIssuer(entry?.discovery) ?? entry?.issuer);
}

/**
 * The credentials of `issuer` in `entry`, to edit: made when there are none. Those of an old
 * store whose issuer is unknown become this issuer's, as the SDK stamps them on first use.
 */
export function editCredentials(entry: StoredSignIn, issuer: string): IssuedCredentials {
  const found = credentialsOf(entry, issuer);
  if (found) {
    found.issuer ??= issuer;
    return found;
  }
  const made: IssuedCredentials = { issuer };
  entry.credentials.push(made);
  return made;
}

/** When stored tokens expire (ms since the epoch), or undefined when the server gave no lifetime. */
export function expiresAt(credentials: IssuedCredentials | undefined): number | undefined {
  const seconds = credentials?.tokens?.expires_in;
  if (seconds === undefined || credentials?.savedAt === undefined) return undefined;
  return credentials.savedAt + seconds * 1000;
}

/**
 * One entry as read from the file, keeping only the shape mcpterm writes (a hand-edited file
 * cannot inject odd values). An entry of the first format (one client and one set of tokens,
 * stamped or not) becomes the credentials of the issuer that stamped them or that its discovery
 * named, so a sign-in made before the upgrade still works.
 */
export function readEntry(value: unknown): StoredSignIn[] {
  if (typeof value !== "object" || value === null) return [];
  const record = value as Record<string, unknown>;
  if (typeof record.server !== "string" || typeof record.url !== "string") return [];
  const entry: StoredSignIn = { server: record.server, url: record.url, credentials: [] };
  if (typeof record.discovery === "object" && record.discovery !== null)
    entry.discovery = record.discovery as OAuthDiscoveryState;
  if (typeof record.issuer === "string") entry.issuer = record.issuer;
  if (Array.isArray(record.credentials)) {
    entry.credentials = record.credentials.flatMap((set: unknown) => readCredentials(set, undefined));
  } else {
    entry.credentials = readFirstFormat(record, discoveredIssuer(entry.discovery));
    const tokensIssuer = entry.credentials.find((set) => set.tokens)?.issuer ?? entry.credentials[0]?.issuer;
    if (tokensIssuer !== undefined) entry.issuer = tokensIssuer;
  }
  bindUnknownIssuer(entry);
  return [entry];
}

/**
 * The credentials of a first-format entry. A client and tokens that different issuers stamped
 * (the server moved between registering and signing in) are each kept under their own issuer:
 * filed together, one issuer's tokens would be sent when the server names the other.
 */
function readFirstFormat(
  record: Record<string, unknown>,
  discovered: string | undefined,
): IssuedCredentials[] {
  const clientStamp = stampOf(record.client);
  const tokensStamp = stampOf(record.tokens);
  if (clientStamp === undefined || tokensStamp === undefined || issuersMatch(clientStamp, tokensStamp))
    return readCredentials(record, clientStamp ?? tokensStamp ?? discovered);
  // The DPoP key binds the tokens, so it stays with them.
  const { client, ...rest } = record;
  return [...readCredentials({ client }, clientStamp), ...readCredentials(rest, tokensStamp)];
}

/** One issuer's credentials; `issuer` stamps an old entry's unstamped client and tokens. */
function readCredentials(value: unknown, issuer: string | undefined): IssuedCredentials[] {
  if (typeof value !== "object" || value === null) return [];
  const record = value as Record<string, unknown>;
  const own = typeof record.issuer === "string" ? record.issuer : issuer;
  const set: IssuedCredentials = own === undefined ? {} : { issuer: own };
  const stamp = (stored: unknown): { issuer?: string } => {
    const stamped = stampOf(stored) ?? own;
    return stamped === undefined ? {} : { issuer: stamped };
  };
  const tokens = OAuthTokensSchema.safeParse(record.tokens);
  if (tokens.success) set.tokens = { ...tokens.data, ...stamp(record.tokens) };
  const client = OAuthClientInformationFullSchema.partial({ redirect_uris: true }).safeParse(record.client);
  if (client.success && typeof client.data.client_id === "string")
    set.client = { ...client.data, ...stamp(record.client) };
  if (typeof record.savedAt === "number") set.savedAt = record.savedAt;
  if (isPrivateJwk(record.dpopKey)) set.dpopKey = record.dpopKey;
  return set.client || set.tokens || set.dpopKey ? [set] : [];
}

/**
 * The `issuer` the SDK stamps on what it saves (the schemas drop unknown keys): read back, it
 * tells the SDK which authorization server the credentials belong to.
 */
function stampOf(value: unknown): string | undefined {
  const issuer = (value as { issuer?: unknown } | undefined)?.issuer;
  return typeof issuer === "string" ? issuer : undefined;
}

/** A private EC key as JWK, the only kind mcpterm writes (P-256, for ES256 proofs). */
function isPrivateJwk(value: unknown): value is JsonWebKey {
  const key = value as Record<string, unknown> | null;
  return (
    typeof key === "object" &&
    key !== null &&
    key.kty === "EC" &&
    key.crv === "P-256" &&
    typeof key.x === "string" &&
    typeof key.y === "string" &&
    typeof key.d === "string"
  );
}
