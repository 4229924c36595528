import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { truncateEnd } from "../text/display-width.js";
import { MODERN_REVISION } from "./protocol-era.js";
import type { WireWatcher } from "./tapped-transport.js";

/**
 * Why a stdio server was spoken to in 2025-11-25 after the 2026-07-28 probe (`server/discover`)
 * went out, when that is the server's fault rather than its age: it never answered the probe (a
 * JSON-RPC server must answer a method it does not know, with -32601), or it answered as a 2026
 * server only after mcpterm had stopped waiting. Either way every start waits out the probe.
 * (Over HTTP an unanswered probe is an HTTP status, and nothing is waited out.)
 */
export type ProbeOutcome =
  | { kind: "unanswered"; waitedMs: number }
  | { kind: "late"; waitedMs: number; answeredMs: number }
  /** The process ended on the probe (`ended`: "exited (code 1): Error: …"), and was started again. */
  | { kind: "exited"; ended: string };

/** Watches one connection attempt's wire for the probe, its answer and the fallback to initialize. */
export class ProbeWatch implements WireWatcher {
  private probe: { id: string | number; sentAt: number } | undefined;
  private answeredAt: number | undefined;
  private fellBackAt: number | undefined;
  /** A 2026 server answers with its result; a 2025 one with an error (Method not found). */
  private answeredWithResult = false;
  private answer: unknown;
  private initialize: string | number | undefined;
  /** initialize (the fallback's, or the only request of a pinned 2025 revision) was answered "Method not found": a server of 2026-07-28 only. */
  private initializeRefused = false;

  constructor(private readonly now: () => number = () => performance.now()) {}

  sent(message: JSONRPCMessage): void {
    if (!("method" in message) || !("id" in message)) return;
    if (message.method === "server/discover") this.probe ??= { id: message.id, sentAt: this.now() };
    else if (message.method === "initialize") {
      if (this.probe) this.fellBackAt ??= this.now();
      this.initialize = message.id;
    }
  }

  received(message: JSONRPCMessage): JSONRPCMessage {
    if (
      this.initialize !== undefined &&
      "id" in message &&
      message.id === this.initialize &&
      "error" in message
    )
      this.initializeRefused = message.error.code === METHOD_NOT_FOUND;
    if (this.probe && this.answeredAt === undefined && !("method" in message) && "id" in message)
      if (message.id === this.probe.id) {
        this.answeredAt = this.now();
        this.answeredWithResult = "result" in message;
        if ("result" in message) this.answer = message.result;
      }
    return message;
  }

  /**
   * For a server that failed to start: why a server of 2026-07-28 was not spoken to in it, which
   * the failure alone does not say (a 2026-only server fails initialize with "Method not found"):
   * it answered the probe only after mcpterm stopped waiting, or not before its initialize was
   * refused, or its answer was not a valid server/discover result; or, with no probe (a revision
   * of 2025 pinned), that initialize was refused as a server of 2026-07-28 only refuses it.
   * Undefined when none is so. `typed`: the server was typed after `--` (the advice names a flag);
   * `pinned`: a 2025 revision was pinned for it (not an SSE entry, or a restart that spoke 2025).
   */
  fallbackStory(typed = false, pinned = false): string | undefined {
    const { probe, answeredAt, fellBackAt } = this;
    const pin = typed
      ? `give --protocol ${MODERN_REVISION}`
      : `set "protocol": "${MODERN_REVISION}" in its config entry`;
    if (!probe)
      return this.initializeRefused && pinned
        ? `it refused initialize (Method not found), as a server of ${MODERN_REVISION} only does: mcpterm spoke a 2025 revision because one was pinned (${typed ? "--protocol" : `"protocol" in its config entry`}); leave the pin out, or pin ${MODERN_REVISION}`
        : undefined;
    if (answeredAt === undefined && fellBackAt !== undefined && this.initializeRefused)
      return `it did not answer server/discover within ${Math.round(fellBackAt - probe.sentAt)} ms and refused 2025-11-25's initialize: for a server of ${MODERN_REVISION} only that starts this slowly, ${pin}`;
    if (answeredAt === undefined || !this.answeredWithResult) return undefined;
    if (fellBackAt !== undefined && answeredAt > fellBackAt)
      return `it answered server/discover ${Math.round(answeredAt - probe.sentAt)} ms after the probe, when mcpterm had stopped waiting (${Math.round(fellBackAt - probe.sentAt)} ms) and spoken 2025-11-25's initialize; for a server this slow to start, ${pin}`;
    const problem = discoverProblem(this.answer);
    return problem === undefined
      ? undefined
      : `its server/discover answer ${problem}, so it could not be spoken to in 2026-07-28`;
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

/** What is wrong with a server/discover result, as the 2026-07-28 revision defines it, or undefined. */
export function discoverProblem(result: unknown): string | undefined {
  if (typeof result !== "object" || result === null || Array.isArray(result)) return "is not an object";
  const { supportedVersions, capabilities } = result as {
    supportedVersions?: unknown;
    capabilities?: unknown;
  };
  if (!Array.isArray(supportedVersions)) return "has no supportedVersions list";
  if (!supportedVersions.every((version) => typeof version === "string"))
    return "has supportedVersions that are not all strings";
  if (supportedVersions.length === 0) return "lists no supportedVersions";
  if (!supportedVersions.includes(MODERN_REVISION)) {
    // The server's words: a few, each cut short, so a hostile answer cannot fill the sentence.
    const shown = supportedVersions.slice(0, 5).map((version) => JSON.stringify(truncateEnd(version, 40)));
    const more = supportedVersions.length > 5 ? ` and ${supportedVersions.length - 5} more` : "";
    return `lists ${shown.join(", ")}${more} in supportedVersions, not "${MODERN_REVISION}"`;
  }
  if (typeof capabilities !== "object" || capabilities === null || Array.isArray(capabilities))
    return "has no capabilities object";
  return undefined;
}

/** JSON-RPC's code for a method the server does not know. */
const METHOD_NOT_FOUND = -32601;
