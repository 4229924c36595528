import type { ServerSnapshot } from "./types.js";

/**
 * What mcpterm knows of the protocol a server speaks, and the one place every view of it reads
 * from (`tools`, `doctor`, the TUI's /mcp): today the version initialize agreed on. The protocol
 * era (the 2026-07-28 revision's work) joins here, and every view shows it without a change.
 */
export interface ProtocolFacts {
  version: string | undefined;
  era: string | undefined;
}

export function protocolFacts(server: Pick<ServerSnapshot, "protocolVersion">): ProtocolFacts {
  return { version: server.protocolVersion, era: undefined };
}

/** "protocol 2025-11-25" (and its era, once known), or undefined when nothing is known. */
export function protocolLabel(facts: ProtocolFacts, separator = ", "): string | undefined {
  const parts = [
    ...(facts.version === undefined ? [] : [`protocol ${facts.version}`]),
    ...(facts.era === undefined ? [] : [`era ${facts.era}`]),
  ];
  return parts.length === 0 ? undefined : parts.join(separator);
}
