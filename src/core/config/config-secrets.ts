import { MIN_SECRET_CHARS, secretsFromEnvironment } from "../policy/secret-patterns.js";
import type { McptermConfig } from "./config-types.js";

/**
 * Secret values a config hands to its servers: each server's `env` entries whose names say they
 * are secret, its header values (an Authorization header is the usual way a token travels) and
 * the values from the environment its URL carries (ServerConfig.urlSecrets).
 * An OAuth client secret or private key is one too. They are redacted wherever they appear, a
 * server's own stderr included.
 */
export function configSecrets(config: McptermConfig): string[] {
  return config.servers.flatMap((server) => [
    ...secretsFromEnvironment(server.env),
    ...Object.values(server.headers)
      .flatMap((value) => [
        value,
        value.replace(/^\s*(?:Bearer|Basic|Token)\s+/i, ""),
        ...basicCredentials(value),
      ])
      .filter((value) => value.length >= MIN_SECRET_CHARS),
    ...(server.urlSecrets ?? []),
    ...[server.oauth?.clientSecret, server.oauth?.privateKey, server.oauth?.idToken].filter(
      (value) => value !== undefined,
    ),
  ]);
}

/**
 * What Basic authentication (a URL's user and password become one, see url-credentials.ts) sends
 * in base64: `user:password` and the password as they read (the user name when it stands alone,
 * a token), for a server that echoes them.
 */
function basicCredentials(value: string): string[] {
  const encoded = /^\s*Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value)?.[1];
  if (encoded === undefined) return [];
  const pair = Buffer.from(encoded, "base64").toString("utf8");
  const colon = pair.indexOf(":");
  if (colon === -1) return [pair];
  const [user, password] = [pair.slice(0, colon), pair.slice(colon + 1)];
  // `https://TOKEN@host/mcp`: a token given as the user name, with no password.
  return password === "" ? [pair, user] : [pair, password];
}
