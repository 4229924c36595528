import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpError } from "../errors.js";

export interface RequestBounds {
  /** Who answers, as a sentence names it: `login.example.com`, `the identity provider idp.example.com`. */
  who: string;
  timeoutMs: number;
  /** Aborts when the connection closes (Ctrl+C included): the request is given up. */
  stop: AbortSignal;
  /** The sentence for a request given up that way. */
  givenUp: string;
}

/**
 * One request to an authorization server or identity provider, bounded: given up after
 * `timeoutMs` or when `stop` aborts. Failures are one clause naming `who`, as plain Errors: the
 * sign-in step is added where they are shown.
 */
export async function boundedRequest(
  base: FetchLike,
  input: string | URL,
  init: RequestInit | undefined,
  bounds: RequestBounds,
): Promise<Response> {
  const signals = [AbortSignal.timeout(bounds.timeoutMs), bounds.stop];
  if (init?.signal) signals.push(init.signal);
  let response: Response;
  try {
    response = await base(input, { ...init, signal: AbortSignal.any(signals) });
  } catch (error) {
    if (bounds.stop.aborted) throw new McpError(bounds.givenUp);
    if (error instanceof Error && error.name === "TimeoutError")
      throw new Error(`${bounds.who} did not answer within ${Math.round(bounds.timeoutMs / 1000)} s`);
    throw error;
  }
  return response;
}
