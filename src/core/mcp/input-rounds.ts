import type { WireFrame } from "./types.js";

/** Longest key or method name a record keeps (they come from the server). */
const MAX_NAME = 100;
/** Most questions one record lists (a server may ask many at once). */
const MAX_ASKS = 20;

/**
 * One round of a request a 2026 server answered with questions (SEP-2322, `input_required`):
 * which request, which round it was (1 = the first answer), what it asked for, and whether it
 * handed back state to echo. The answers themselves are in the elicitation and sampling records
 * and, for the wire, in the retry's `inputResponses`.
 */
export interface InputRoundRecord {
  type: "input_round";
  server: string;
  method: string;
  /** The tool or prompt name, or the resource URI. */
  name: string | undefined;
  round: number;
  asks: Array<{ key: string; method: string }>;
  requestState: boolean;
}

interface Pending {
  method: string;
  name: string | undefined;
  round: number;
}

/**
 * Reads the wire of every server and tells each `input_required` round it sees: a request going
 * out is round 1, or the next round when it carries `inputResponses`/`requestState` (the SDK
 * re-sends the original request under a new id). UI-free: the trace recorder feeds it frames.
 */
export class InputRounds {
  private readonly pending = new Map<string, Pending>();
  /** The round each (server, method, name) reached last, for the retry that follows it. */
  private readonly reached = new Map<string, number>();

  /** The round this frame reveals, if it is an `input_required` answer to a request seen. */
  frame(frame: WireFrame): InputRoundRecord | undefined {
    const message = frame.message as Record<string, unknown> | null;
    if (typeof message !== "object" || message === null || !("id" in message)) return undefined;
    const id = `${frame.server}\u0000${String(message.id)}`;
    if (frame.direction === "send") {
      if (typeof message.method === "string") this.sent(id, frame.server, message.method, message.params);
      return undefined;
    }
    const pending = this.pending.get(id);
    if (pending === undefined) return undefined;
    this.pending.delete(id);
    const result = message.result as Record<string, unknown> | undefined;
    const chain = chainKey(frame.server, pending);
    if (result?.resultType !== "input_required") {
      this.reached.delete(chain);
      return undefined;
    }
    this.reached.set(chain, pending.round);
    return {
      type: "input_round",
      server: frame.server,
      method: pending.method,
      name: pending.name,
      round: pending.round,
      asks: asksOf(result.inputRequests),
      requestState: typeof result.requestState === "string",
    };
  }

  private sent(id: string, server: string, method: string, params: unknown): void {
    if (method !== "tools/call" && method !== "prompts/get" && method !== "resources/read") return;
    const p = (typeof params === "object" && params !== null ? params : {}) as Record<string, unknown>;
    const rawName = typeof p.name === "string" ? p.name : typeof p.uri === "string" ? p.uri : undefined;
    const name = rawName?.slice(0, MAX_NAME);
    const retry = "inputResponses" in p || "requestState" in p;
    const chain = chainKey(server, { method, name });
    const round = retry ? (this.reached.get(chain) ?? 0) + 1 : 1;
    this.pending.set(id, { method, name, round });
  }
}

function chainKey(server: string, request: { method: string; name: string | undefined }): string {
  return `${server}\u0000${request.method}\u0000${request.name ?? ""}`;
}

function asksOf(requests: unknown): InputRoundRecord["asks"] {
  if (typeof requests !== "object" || requests === null) return [];
  return Object.entries(requests as Record<string, unknown>)
    .slice(0, MAX_ASKS)
    .map(([key, request]) => {
      const method = (request as { method?: unknown } | null)?.method;
      return {
        key: key.slice(0, MAX_NAME),
        method: typeof method === "string" ? method.slice(0, MAX_NAME) : "?",
      };
    });
}

/**
 * The SDK reports each round of questions asked inside an answer (input_required) as progress of
 * its own making. The question itself is what the person sees; a progress line saying the SDK is
 * fulfilling it would be the client talking about itself as if the server had. The same notice
 * tells a read that it was answered on a retry, which must not be cached.
 */
export function isInputRoundNotice(progress: { total?: number; message?: string }): boolean {
  return (
    progress.total === undefined &&
    /^Fulfilling input required by '[^']*' \(round \d+\)$/.test(progress.message ?? "")
  );
}
