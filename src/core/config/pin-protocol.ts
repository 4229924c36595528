import type { McptermConfig, ProtocolSetting } from "./config-types.js";

/**
 * `--protocol`: one revision for every server, over what their entries say, to test servers
 * against it; unset, each entry's own `"protocol"` (or auto) holds.
 */
export function withProtocol(config: McptermConfig, protocol: ProtocolSetting | undefined): McptermConfig {
  if (protocol === undefined) return config;
  return { ...config, servers: config.servers.map((server) => ({ ...server, protocol })) };
}
