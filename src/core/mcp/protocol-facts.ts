import { describeProtocol, type ProtocolEra } from "./protocol-era.js";
import type { ServerSnapshot } from "./types.js";

/**
 * What mcpterm knows of the protocol a server speaks, and the one place every view of it reads
 * from (`tools`, `doctor`, the TUI's /mcp, the trace): the revision the two sides settled on and
 * its era (see protocol-era.ts).
 */
export interface ProtocolFacts {
  version: string | undefined;
  era: ProtocolEra | undefined;
}

export function protocolFacts(server: Pick<ServerSnapshot, "protocolVersion" | "era">): ProtocolFacts {
  return { version: server.protocolVersion, era: server.era };
}

/** "protocol 2026-07-28 (modern)", or undefined when nothing is known. */
export function protocolLabel(facts: ProtocolFacts): string | undefined {
  return facts.version === undefined
    ? undefined
    : `protocol ${describeProtocol({ protocolVersion: facts.version, era: facts.era })}`;
}
