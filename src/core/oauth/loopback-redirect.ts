import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { nodeHttp } from "../node-http.js";

/** Where the browser comes back: always the IPv4 loopback address, never a name or 0.0.0.0. */
export const LOOPBACK_HOST = "127.0.0.1";
const CALLBACK_PATH = "/callback";

export function redirectUrlFor(port: number): string {
  return `http://${LOOPBACK_HOST}:${port}${CALLBACK_PATH}`;
}

/**
 * The authorization server's answer at the redirect: a code (with the `iss` it named itself by,
 * RFC 9207, which the SDK checks before redeeming the code), or its refusal.
 */
export type RedirectAnswer =
  | { code: string; iss: string | undefined }
  | { error: string; description: string | undefined; iss: string | undefined };

const PAGE_DONE =
  "<!doctype html><title>mcpterm</title><p>Signed in. You can close this tab and go back to the terminal.</p>";
const PAGE_REFUSED =
  "<!doctype html><title>mcpterm</title><p>The sign-in was refused. The terminal says why.</p>";

/**
 * The loopback listener of one sign-in (RFC 8252): it answers one redirect whose `state` is the
 * one this sign-in sent, and nothing else. A request with another state (a page trying to plant
 * its own code) gets 400 and the wait goes on.
 */
export class LoopbackRedirect {
  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly answer: Promise<RedirectAnswer>,
  ) {}

  /** Listens on 127.0.0.1 at `port` (0: any free port). Rejects when the port is taken. */
  static listen(port: number, state: string): Promise<LoopbackRedirect> {
    let settle: (answer: RedirectAnswer) => void = () => undefined;
    const answer = new Promise<RedirectAnswer>((resolve) => (settle = resolve));
    let answered = false;
    const server = nodeHttp().createServer((request, response) => {
      const url = new URL(request.url ?? "/", `http://${LOOPBACK_HOST}`);
      if (request.method !== "GET" || url.pathname !== CALLBACK_PATH || answered) {
        response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
        return;
      }
      if (url.searchParams.get("state") !== state) {
        response.writeHead(400, { "content-type": "text/plain" }).end("this sign-in was not started here\n");
        return;
      }
      const code = url.searchParams.get("code");
      const error = url.searchParams.get("error");
      answered = true;
      const headers = {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        connection: "close",
      };
      if (code !== null && error === null) {
        response.writeHead(200, headers).end(PAGE_DONE);
        settle({ code, iss: url.searchParams.get("iss") ?? undefined });
      } else {
        response.writeHead(400, headers).end(PAGE_REFUSED);
        settle({
          error: error ?? "no code in the redirect",
          description: url.searchParams.get("error_description") ?? undefined,
          iss: url.searchParams.get("iss") ?? undefined,
        });
      }
    });
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, LOOPBACK_HOST, () => {
        server.off("error", reject);
        resolve(new LoopbackRedirect(server, (server.address() as AddressInfo).port, answer));
      });
    });
  }

  get url(): string {
    return redirectUrlFor(this.port);
  }

  /** The redirect's answer; rejects with `signal`'s reason when it aborts first. */
  wait(signal: AbortSignal): Promise<RedirectAnswer> {
    return new Promise((resolve, reject) => {
      const onAbort = (): void =>
        reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener("abort", onAbort, { once: true });
      void this.answer.then((answer) => {
        signal.removeEventListener("abort", onAbort);
        resolve(answer);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

/** A port free on the loopback address right now (for a redirect URI registered before the wait). */
export async function freeLoopbackPort(): Promise<number> {
  const probe = await LoopbackRedirect.listen(0, randomUUID());
  await probe.close();
  return probe.port;
}
