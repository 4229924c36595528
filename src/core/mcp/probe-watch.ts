import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import type { WireWatcher } from "./tapped-transport.js";

/**
 * Why a stdio server was spoken to in 2025-11-25 after the 2026-07-28 probe (`server/discover`)
 * went out, when that is the server's fault rather than its age: it never answered the probe (a
 * JSON-RPC server must answer a method it does not know, with -32601), or it answered as a 2026
 * server only after mcpterm had stopped waiting. Either way every start waits out the probe.
 * (Over HTTP an unanswered probe is an HTTP status, and nothing is waited out.)
 */
export type ProbeOutcome =
  { kind: "unanswered"; waitedMs: number } | { kind: "late"; waitedMs: number; answeredMs: number };

/** Watches one connection attempt's wire for the probe, its answer and the fallback to initialize. */
export class ProbeWatch implements WireWatcher {
  private probe: { id: string | number; sentAt: number } | undefined;
  private answeredAt: number | undefined;
  private fellBackAt: number | undefined;
  /** A 2026 server answers with its result; a 2025 one with an error (Method not found). */
  private answeredWithResult = false;

  constructor(private readonly now: () => number = () => performance.now()) {}

  sent(message: JSONRPCMessage): void {
    if (!("method" in message) || !("id" in message)) return;
    if (message.method === "server/discover") this.probe ??= { id: message.id, sentAt: this.now() };
    else if (message.method === "initialize" && this.probe) this.fellBackAt ??= this.now();
  }

  received(message: JSONRPCMessage): JSONRPCMessage {
    if (this.probe && this.answeredAt === undefined && !("method" in message) && "id" in message)
      if (message.id === this.probe.id) {
        this.answeredAt = this.now();
        this.answeredWithResult = "result" in message;
      }
    return message;
  }

  /** What became of the probe, when the server is to blame for the fallback; undefined otherwise. */
  outcome(): ProbeOutcome | undefined {
    const { probe, fellBackAt, answeredAt } = this;
    if (!probe || fellBackAt === undefined) return undefined;
    const waitedMs = Math.round(fellBackAt - probe.sentAt);
    if (answeredAt === undefined) return { kind: "unanswered", waitedMs };
    // Refused (Method not found), in time or late: a 2025 server, as it should answer; a slow
    // start is told as one.
    if (answeredAt <= fellBackAt || !this.answeredWithResult) return undefined;
    return { kind: "late", waitedMs, answeredMs: Math.round(answeredAt - probe.sentAt) };
  }
}
