import { secretsFromEnvironment } from "../policy/secret-patterns.js";
import type { McptermConfig } from "./config-types.js";

/**
 * Secret values a config hands to its servers: each server's `env` entries whose names say they
 * are secret, and its header values (an Authorization header is the usual way a token travels).
 * An OAuth client secret or private key is one too. They are redacted wherever they appear, a
 * server's own stderr included.
 */
export function configSecrets(config: McptermConfig): string[] {
  return config.servers.flatMap((server) => [
    ...secretsFromEnvironment(server.env),
    ...Object.values(server.headers)
      .flatMap((value) => [value, value.replace(/^\s*(?:Bearer|Basic|Token)\s+/i, "")])
      .filter((value) => value.length >= 8),
    ...[server.oauth?.clientSecret, server.oauth?.privateKey, server.oauth?.idToken].filter(
      (value) => value !== undefined,
    ),
  ]);
}
