/**
 * A remote server's URL with a user name and password in it (`https://user:pass@host/mcp`), as
 * curl takes one: the credentials leave the URL and travel as HTTP Basic authentication. Node's
 * fetch refuses a URL that holds credentials, so left in place they could never be sent; moved
 * into a header they are sent, redacted and judged as every configured header is.
 */
export type MovedCredentials =
  | { url: string; headers: Record<string, string>; authorizationFromUrl?: true }
  | { problem: "an Authorization header too" };

/**
 * Where the user name and password are in a URL as written in a config (`https://user:${PASS}@host`),
 * as offsets [start, end): the authority's text before its last `@`. A value put there from the
 * environment is percent-encoded, so a password with `@`, `/`, `#`, `?` or `%` in it stays the
 * password instead of moving the URL's host or path; the Basic credentials decode it again.
 */
export function urlUserinfoSpan(raw: string): [number, number] | undefined {
  const authority = authorityOf(raw);
  if (authority === undefined) return undefined;
  const at = raw.slice(authority.start, authority.end).lastIndexOf("@");
  return at === -1 ? undefined : [authority.start, authority.start + at];
}

/**
 * Where the authority (`user:password@host:port`) of a URL as written in a config ends: the
 * offset of its path, query or fragment. Undefined when the text does not start with a scheme
 * (a whole URL from one variable).
 */
export function urlAuthorityEnd(raw: string): number | undefined {
  return authorityOf(raw)?.end;
}

/** The authority's offsets, after `scheme://` up to the path, query or fragment, outside a `${NAME:-default}` (whose default may hold a `/`). */
function authorityOf(raw: string): { start: number; end: number } | undefined {
  const start = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(raw)?.[0].length;
  if (start === undefined) return undefined;
  const authority = /^(?:\$\{[^}]*\}|[^/?#])*/.exec(raw.slice(start))?.[0] ?? "";
  return { start, end: start + authority.length };
}

/** The URL without its credentials and the headers with Basic authentication added; unchanged without credentials. */
export function moveUrlCredentials(url: string, headers: Record<string, string>): MovedCredentials {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, headers };
  }
  if (parsed.username === "" && parsed.password === "") return { url, headers };
  // Two ways of saying who is calling; sending either one silently would guess which is meant.
  if (Object.keys(headers).some((name) => name.toLowerCase() === "authorization"))
    return { problem: "an Authorization header too" };
  const pair = `${decoded(parsed.username)}:${decoded(parsed.password)}`;
  parsed.username = "";
  parsed.password = "";
  return {
    url: parsed.href,
    headers: { ...headers, Authorization: `Basic ${Buffer.from(pair, "utf8").toString("base64")}` },
    authorizationFromUrl: true,
  };
}

/** The URL keeps them percent-encoded; Basic authentication sends the characters themselves. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * True when an OpenAI-compatible endpoint's URL holds a user name or password. Such an endpoint
 * takes its key as a Bearer token in the Authorization header, which Basic authentication would
 * need too; so these are refused with a sentence rather than moved.
 */
export function hasUrlCredentials(url: string): boolean {
  try {
    const { username, password } = new URL(url);
    return username !== "" || password !== "";
  } catch {
    return false;
  }
}

/** `where` (the flag, variable or config key the URL came from) refused for its credentials; `key`: where the key goes instead. */
export function endpointCredentialsSentence(where: string, key: string): string {
  return `${where} holds a user name or password, which fetch refuses to send; remove it from the URL and give the key as ${key} (sent as a Bearer token)`;
}
