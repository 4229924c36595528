import { createHash } from "node:crypto";
import type { McptermConfig, ServerConfig } from "./config-types.js";

/** The exact command line a stdio server would be started with, as shown to the person who trusts it. */
export function launchLine(server: ServerConfig): string {
  const words = [server.command ?? "", ...server.args].map((word) =>
    /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word),
  );
  return `${server.name}: ${words.join(" ")}${server.cwd ? `  (in ${server.cwd})` : ""}`;
}

/** Enabled stdio servers: the ones that would start a process on this machine. */
export function processServers(config: McptermConfig): ServerConfig[] {
  return config.servers.filter((server) => server.transport === "stdio" && !server.disabled);
}

/**
 * A hash of everything that decides what runs: command, args, cwd and env of every stdio server.
 * Trust given to one version of a config lapses when any of that changes.
 */
export function launchHash(config: McptermConfig): string {
  const launches = processServers(config).map((server) => [
    server.name,
    server.command,
    server.args,
    server.cwd,
    server.env,
  ]);
  return createHash("sha256").update(JSON.stringify(launches)).digest("hex");
}
