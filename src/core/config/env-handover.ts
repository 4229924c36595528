import type { EnvironmentValue, ServerConfig } from "./config-types.js";

/** Values from the user's environment that one remote entry sends to one place. */
export interface Handover {
  /** Where they go, as a person reads it: `mcp.example.com`, `the identity provider idp.example.com`. */
  destination: string;
  values: EnvironmentValue[];
}

/** Oauth keys whose values go to the identity provider rather than the authorization server. */
const IDENTITY_PROVIDER_KEYS = new Set(["idToken", "idpClientId", "idpTokenEndpoint"]);

/**
 * Where each `${VAR}` of the user's environment in a remote entry goes, grouped by destination:
 * its URL and headers to the server's host; its oauth values to the identity provider it names
 * (the ID token) or the authorization server (its issuer, else the one the server names). A
 * project file chose every one of these places, so handing them a value of the user's needs
 * the user's yes. Empty for stdio servers (their env is shown another way) and for `"oauth":
 * false`'s values, which go nowhere.
 */
export function handovers(server: ServerConfig): Handover[] {
  const grouped = new Map<string, EnvironmentValue[]>();
  for (const value of server.fromEnvironment ?? []) {
    const destination = destinationOf(server, value.key);
    if (destination === undefined) continue;
    grouped.set(destination, [...(grouped.get(destination) ?? []), value]);
  }
  return [...grouped].map(([destination, values]) => ({ destination, values }));
}

/** `${GITHUB_TOKEN} (headers.Authorization), ${ID} (oauth.idToken)`. */
export function describeValues(values: readonly EnvironmentValue[]): string {
  return values.map(({ variable, key }) => `\${${variable}} (${key})`).join(", ");
}

function destinationOf(server: ServerConfig, key: string): string | undefined {
  const oauthKey = /^oauth\.(\w+)/.exec(key)?.[1];
  if (oauthKey === undefined) return hostOf(server.url);
  const { oauth } = server;
  if (oauth?.enabled === false) return undefined;
  if (IDENTITY_PROVIDER_KEYS.has(oauthKey)) return `the identity provider ${hostOf(oauth?.idpTokenEndpoint)}`;
  return oauth?.issuer === undefined
    ? `the authorization server ${hostOf(server.url)} names`
    : `the authorization server ${hostOf(oauth.issuer)}`;
}

function hostOf(url: string | undefined): string {
  return url !== undefined && URL.canParse(url) ? new URL(url).host : (url ?? "unknown");
}
