import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import type { WireWatcher } from "./tapped-transport.js";

/**
 * Why a server was spoken to in 2025-11-25 after the 2026-07-28 probe (`server/discover`) went
 * out, when that is the server's fault rather than its age: it never answered the probe (a
 * JSON-RPC server must answer a method it does not know, with -32601), or it answered only after
 * mcpterm had stopped waiting. Either way every start waits out the probe first.
 */
export type ProbeOutcome =
  { kind: "unanswered"; waitedMs: number } | { kind: "late"; waitedMs: number; answeredMs: number };

/** Watches one connection attempt's wire for the probe, its answer and the fallback to initialize. */
export class ProbeWatch implements WireWatcher {
  private probe: { id: string | number; sentAt: number } | undefined;
  private answeredAt: number | undefined;
  private fellBackAt: number | undefined;

  constructor(private readonly now: () => number = () => performance.now()) {}

  sent(message: JSONRPCMessage): void {
    if (!("method" in message) || !("id" in message)) return;
    if (message.method === "server/discover") this.probe ??= { id: message.id, sentAt: this.now() };
    else if (message.method === "initialize" && this.probe) this.fellBackAt ??= this.now();
  }

  received(message: JSONRPCMessage): JSONRPCMessage {
    if (this.probe && this.answeredAt === undefined && !("method" in message) && "id" in message)
      if (message.id === this.probe.id) this.answeredAt = this.now();
    return message;
  }

  /** What became of the probe, when the server is to blame for the fallback; undefined otherwise. */
  outcome(): ProbeOutcome | undefined {
    const { probe, fellBackAt, answeredAt } = this;
    if (!probe || fellBackAt === undefined) return undefined;
    const waitedMs = Math.round(fellBackAt - probe.sentAt);
    if (answeredAt === undefined) return { kind: "unanswered", waitedMs };
    // Refused in time (Method not found): a 2025 server, as it should answer.
    if (answeredAt <= fellBackAt) return undefined;
    return { kind: "late", waitedMs, answeredMs: Math.round(answeredAt - probe.sentAt) };
  }
}
