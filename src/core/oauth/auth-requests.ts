import type { FetchLike } from "@modelcontextprotocol/client";
import { ServerUnavailableError } from "../errors.js";
import { formatBytes } from "../text/index.js";

/**
 * The most an authorization server or identity provider may send in one answer. Metadata, a
 * registered client or tokens take a few KB; a 700 MB token answer was read whole until the
 * request's time ran out, and held 339 MB meanwhile.
 */
export const MAX_AUTH_ANSWER_BYTES = 4 * 1024 * 1024;

/** An OAuth request its host did not answer in time: named as such, never as "no metadata". */
export class AuthRequestTimedOut extends Error {}

/** Statuses whose answers have no body, which a Response cannot be made with. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

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
 * `timeoutMs` or when `stop` aborts, its answer read to at most MAX_AUTH_ANSWER_BYTES. Failures
 * are one clause naming `who`, as plain Errors: the sign-in step is added where they are shown.
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
    if (bounds.stop.aborted) throw new ServerUnavailableError(bounds.givenUp);
    if (error instanceof Error && error.name === "TimeoutError")
      throw new AuthRequestTimedOut(
        `${bounds.who} did not answer within ${Math.round(bounds.timeoutMs / 1000)} s`,
      );
    throw error;
  }
  return limitedBody(response, bounds.who);
}

/** `response` with a body that fails, with one sentence, once it runs past the limit. */
function limitedBody(response: Response, who: string, limit = MAX_AUTH_ANSWER_BYTES): Response {
  const tooLarge = (): Error =>
    new Error(
      `${who} sent an answer larger than ${formatBytes(limit)}, far more than any OAuth answer needs, and mcpterm stopped reading it`,
    );
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (declared > limit) {
    void response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body || NO_BODY.has(response.status)) return response;
  let read = 0;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > limit) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
