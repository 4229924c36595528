/**
 * What a server sends that JSON-RPC 2.0 or MCP forbids though mcpterm's SDK lets it pass, as
 * doctor's json-rpc step tells it: WireWatch (doctor-wire.ts) reports the frames to a SlipWatch.
 */

/**
 * A slip: what kind, whether it breaks other clients (an id) or only misleads them (progress),
 * the sentence doctor prints, and the values it names, for a script reading `doctor --json`.
 */
export type JsonRpcSlip = { text: string } & (
  | { kind: "id-retyped"; severity: "error"; method: string; id: unknown; answeredId: unknown }
  | { kind: "answered-twice"; severity: "error"; method: string; id: unknown }
  | { kind: "content-missing"; severity: "error"; method: string; id: unknown }
  | { kind: "progress-not-increasing"; severity: "warning"; token: unknown; progress: number; last: number }
  | { kind: "progress-after-answer"; severity: "warning"; token: unknown; progress: number }
);

/** The slips, the first MAX_SLIPS of each severity kept in order, and how many of each came. */
export interface JsonRpcSlips {
  kept: JsonRpcSlip[];
  errors: number;
  warnings: number;
}

/**
 * How many slips of each severity are kept: a server that slips on every message is told by its
 * first few, and a flood of warnings does not push out an error.
 */
export const MAX_SLIPS = 10;

/**
 * Slips a client may forgive and another will not: an answer whose id is the request's in another
 * type (the SDK takes `"3"` for 3; a client that compares ids strictly never sees the answer), a
 * request answered twice (the second may be taken for a later request's), progress that does not
 * increase (MCP: each notification's `progress` must be greater than the last), and progress
 * after the request's answer (MCP: it must stop once the request completes).
 */
export class SlipWatch {
  private readonly found: JsonRpcSlip[] = [];
  private readonly counts = { error: 0, warning: 0 };
  /** The last progress of each token, by server. */
  private readonly lastProgress = new Map<string, number>();
  /** Each token's request (by the watch's key), and the tokens of requests answered already. */
  private readonly tokenOf = new Map<string, string>();
  private readonly finished = new Set<string>();

  idRetyped(method: string, sent: unknown, answered: unknown): void {
    this.add({
      kind: "id-retyped",
      severity: "error",
      method,
      id: sent,
      answeredId: answered,
      text: `${method} (id ${JSON.stringify(sent)}) was answered with the id ${JSON.stringify(answered)}, a ${typeof answered}: an answer's id must be its request's, of the same type (JSON-RPC 2.0)`,
    });
  }

  answeredAgain(method: string, id: unknown): void {
    this.add({
      kind: "answered-twice",
      severity: "error",
      method,
      id,
      text: `${method} (id ${JSON.stringify(id)}) was answered a second time: a request has one answer, and a client may take the second for another request's`,
    });
  }

  /**
   * A 2025 tool result without `content`, which every revision requires of a finished call (a
   * task finishes later): the SDK reads it as `[]`, where it fails a 2026 answer's call.
   */
  contentMissing(method: string, id: unknown): void {
    this.add({
      kind: "content-missing",
      severity: "error",
      method,
      id,
      text: `${method} (id ${JSON.stringify(id)}) was answered without content: a tool's result must have a content array (MCP), which the SDK makes [] in 2025-11-25 and a stricter client, or any in 2026-07-28, fails`,
    });
  }

  /** A request went out: progress under its token starts anew (a restarted server's ids, and tokens, start over). */
  asked(server: string, request: string, params: unknown): void {
    const meta = isRecord(params) && isRecord(params._meta) ? params._meta : undefined;
    const key = tokenKey(server, meta?.progressToken);
    if (key === undefined) return;
    this.lastProgress.delete(key);
    this.finished.delete(key);
    this.tokenOf.set(request, key);
  }

  /**
   * Its request was answered: progress under its token must stop, unless the answer is a task,
   * whose progress goes on under the request's token until the task ends (MCP tasks).
   */
  answered(request: string, task: boolean): void {
    const key = this.tokenOf.get(request);
    if (key === undefined) return;
    this.tokenOf.delete(request);
    if (!task) this.finished.add(key);
  }

  progress(server: string, params: unknown): void {
    if (!isRecord(params) || typeof params.progress !== "number") return;
    const token = params.progressToken;
    const key = tokenKey(server, token);
    if (key === undefined) return;
    if (this.finished.has(key)) {
      this.add({
        kind: "progress-after-answer",
        severity: "warning",
        token,
        progress: params.progress,
        text: `progress ${params.progress} came after the request was answered (token ${JSON.stringify(token)}): progress notifications must stop once it is (MCP)`,
      });
      return;
    }
    const last = this.lastProgress.get(key);
    this.lastProgress.set(key, params.progress);
    if (last !== undefined && params.progress <= last)
      this.add({
        kind: "progress-not-increasing",
        severity: "warning",
        token,
        progress: params.progress,
        last,
        text: `progress ${params.progress} came after ${last} for the same request (token ${JSON.stringify(token)}): each progress notification's progress must be greater than the last (MCP)`,
      });
  }

  seen(): JsonRpcSlips {
    return { kept: [...this.found], errors: this.counts.error, warnings: this.counts.warning };
  }

  private add(slip: JsonRpcSlip): void {
    this.counts[slip.severity] += 1;
    if (this.counts[slip.severity] <= MAX_SLIPS) this.found.push(slip);
  }
}

function tokenKey(server: string, token: unknown): string | undefined {
  return typeof token === "string" || typeof token === "number"
    ? `${server}\u0000${typeof token}\u0000${token}`
    : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
