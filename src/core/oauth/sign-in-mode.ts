import type { ServerConfig } from "../config/config-types.js";

/**
 * How a server entry signs in, decided in one place for the connection, `auth login` and
 * `auth status`: `local` (stdio, nothing to sign in to), `off` (`"oauth": false`), `own header`
 * (the entry sends its own Authorization header, which wins), `service account` (a grant that
 * signs in by itself) or `browser` (a person, as the MCP spec describes, on a 401).
 */
export type SignInMode = "local" | "off" | "own header" | "service account" | "browser";

export function signInMode(config: ServerConfig): SignInMode {
  if (config.transport === "stdio" || config.url === undefined) return "local";
  if (config.oauth?.enabled === false) return "off";
  if (Object.keys(config.headers).some((name) => name.toLowerCase() === "authorization")) return "own header";
  if (config.oauth && config.oauth.grant !== "authorization_code") return "service account";
  return "browser";
}
