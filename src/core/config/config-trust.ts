import { createHash } from "node:crypto";
import type { McptermConfig, ServerConfig } from "./config-types.js";

/**
 * What a person agrees to when trusting a config, one line per server: the exact command line
 * of a stdio server, or the URL of a remote one (with the names, not values, of the headers it
 * would send: they may carry secrets from the environment), plus any tier a config lowers.
 */
export function trustLine(server: ServerConfig): string {
  const target =
    server.transport === "stdio"
      ? [server.command ?? "", ...server.args]
          .map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word)))
          .join(" ") + (server.cwd ? `  (in ${server.cwd})` : "")
      : `${server.url ?? ""}${Object.keys(server.headers).length > 0 ? ` (sends headers ${Object.keys(server.headers).join(", ")})` : ""}`;
  const tiers = Object.entries(server.tiers).map(([tool, tier]) => `${tool}=${tier}`);
  const extras = [
    ...(tiers.length > 0 ? [`sets tiers ${tiers.join(", ")}`] : []),
    ...(server.trust ? ["trust: true (its annotations may lower tiers)"] : []),
    ...(server.allowInsecureHttp ? ["allowInsecureHttp: true (may send its headers over plain http)"] : []),
  ];
  return `${server.name}: ${target}${extras.length > 0 ? `; ${extras.join("; ")}` : ""}`;
}

/**
 * Enabled servers: each either starts a program on this machine or connects to a URL with
 * headers that may carry secrets, so every one of them needs the person's trust.
 */
export function serversNeedingTrust(config: McptermConfig): ServerConfig[] {
  return config.servers.filter((server) => !server.disabled);
}

/**
 * A hash of everything a person trusted: what runs or is contacted (command, args, cwd, env,
 * URL, headers) and what the config decides about risk (tiers, trust, allowInsecureHttp).
 * Change any of it and the trust lapses.
 */
export function launchHash(config: McptermConfig): string {
  const trusted = serversNeedingTrust(config).map((server) => [
    server.name,
    server.transport,
    server.command,
    server.args,
    server.cwd,
    server.env,
    server.url,
    server.headers,
    server.tiers,
    server.trust,
    // Only when set, so that configs trusted before this key existed stay trusted.
    ...(server.allowInsecureHttp ? [server.allowInsecureHttp] : []),
  ]);
  return createHash("sha256").update(JSON.stringify(trusted)).digest("hex");
}
