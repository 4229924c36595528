import type { Client } from "@modelcontextprotocol/client";
import { statusPhrase } from "./types.js";
import type { LoggingLevel } from "../deprecated-mcp.js";
import type { ServerAuth } from "../oauth/server-auth.js";
import { unknownResultMessage } from "../policy/resend-rule.js";
import type { ProtocolEra } from "./protocol-era.js";
import { isHttpNotFound } from "./remote-transports.js";
import { exitSentence, type ServerExitReport } from "./server-exit.js";
import type { AttemptOutcome } from "./sign-in-loop.js";
import { withStepUp } from "./sign-in-loop.js";
import { classifyRequestError, lostConnection, ToolCallError } from "./tool-call-error.js";
import type { ServerStatus } from "./types.js";

/** Why a server that forgot two new sessions at once cannot be used, and whose fix it is. */
const FORGETS_SESSIONS =
  "the server forgets its sessions at once: it answered initialize, then HTTP 404 to the next request carrying the session id it had just given, twice; its owner must keep sessions where every request reaches them (one process, or a store shared behind a load balancer)";

/** What a connection lends the requests it runs on its session. */
export interface SessionHost {
  readonly name: string;
  readonly auth: ServerAuth | undefined;
  /** Where the connection stands now. */
  state(): { status: ServerStatus; client: Client | undefined; error: string | undefined };
  /** A new session: the connection stopped and connected again. */
  restart(): Promise<void>;
  era(): ProtocolEra | undefined;
  /** The 2025 session id the server gave the transport in use, if any. */
  sessionId(): string | undefined;
  exitReport(): ServerExitReport | undefined;
  note(level: LoggingLevel, text: string): void;
  redact(text: string): string;
}

/**
 * The requests of one server's session. A 2025 Streamable HTTP server that answers 404 to the
 * session id has forgotten the session (it restarted, or expired it): as its spec asks, a new
 * session is started (a fresh initialize, without the old id), on connecting as well as later.
 * Sign-in step-ups and failures leave here classified and redacted.
 */
export class SessionRenewal {
  constructor(private readonly host: SessionHost) {}

  /**
   * Runs a request on the connected client; what it throws leaves redacted and classified.
   * After a lost session it is sent once more only when `resendSafe` (every request but a tool
   * call reads, and a tool call asks resendIsSafe): the server says it did not handle it, but a
   * server behind a balancer or mid-restart may have.
   */
  async run<T>(request: (client: Client) => Promise<T>, resendSafe = true): Promise<T> {
    try {
      return await this.renewing(request, resendSafe);
    } catch (error) {
      // Error texts quote the server (its messages, its stderr): they leave here redacted.
      const failure =
        error instanceof ToolCallError
          ? error
          : classifyRequestError(error, { server: this.host.name, timeoutMs: 0 });
      // A request the process took down with it: say how it ended and why, not "connection lost".
      const exit = lostConnection(error) ? this.host.exitReport() : undefined;
      const message = exit ? exitSentence(this.host.name, exit) : failure.message;
      throw new ToolCallError(failure.failure, this.host.redact(message), {
        cause: error,
        retryable: failure.retryable,
        timedOut: failure.timedOut,
        lost: failure.lost,
        unreachable: failure.unreachable,
      });
    }
  }

  /**
   * A 404 to a request that carried a 2025 session id: the server forgot the session. A 2026
   * server has no sessions, and its 404 means the method or endpoint is unknown: starting over
   * would only loop.
   */
  expired(error: unknown): boolean {
    return this.host.era() === "legacy" && isHttpNotFound(error) && this.host.sessionId() !== undefined;
  }

  /**
   * A 404 while connecting, to a request that carried the session id the server had just given:
   * the session is gone, not the endpoint (so no fallback to the SSE transport either).
   */
  lostOnStart(error: unknown): boolean {
    return isHttpNotFound(error) && this.host.sessionId() !== undefined;
  }

  /**
   * Connects with `attempt` (which signs in as needed). A server that forgot the session it had
   * just given (it restarted right after initialize) gets a new one, without the old id, as the
   * 2025 spec asks. Once: a second loss is final.
   */
  async connect(
    attempt: () => Promise<AttemptOutcome>,
    control: { stop(): Promise<void>; isClosing(): boolean },
  ): Promise<AttemptOutcome> {
    const outcome = await attempt();
    if (outcome.kind !== "failed" || !this.lostOnStart(outcome.error) || control.isClosing()) return outcome;
    this.host.note("notice", "the server forgot its new session at once (HTTP 404); starting another");
    await control.stop();
    const again = await attempt();
    // Lost twice: it answered initialize, so the URL is right; its sessions do not last.
    if (again.kind === "failed" && !control.isClosing() && this.lostOnStart(again.error))
      return { kind: "failed", error: new Error(FORGETS_SESSIONS) };
    return again;
  }

  /** The connected client; a ToolCallError saying why when the server is not connected. */
  private connectedClient(): Client {
    const { status, client, error } = this.host.state();
    if (status !== "connected" || !client) {
      const name = this.host.name;
      throw new ToolCallError(
        "transient",
        `server "${name}" ${statusPhrase(status)}${error ? ` (${error})` : ""}; try /mcp restart ${name}`,
      );
    }
    return client;
  }

  private async renewing<T>(request: (client: Client) => Promise<T>, resendSafe: boolean): Promise<T> {
    const { host } = this;
    try {
      return await withStepUp(host.auth, () => request(this.connectedClient()));
    } catch (error) {
      if (!this.expired(error)) throw error;
      host.note(
        "notice",
        "the server no longer knows this session (HTTP 404); starting a new one, as the MCP spec asks",
      );
      await host.restart();
      const renewed = host.state();
      if (renewed.status !== "connected" || !renewed.client) {
        throw new ToolCallError(
          "transient",
          `server "${host.name}" no longer knew its session (HTTP 404), and starting a new one failed: ${renewed.error ?? "no reason given"}`,
          { cause: error, retryable: false },
        );
      }
      if (!resendSafe)
        throw new ToolCallError(
          "transient",
          unknownResultMessage(host.name, "lost its session (HTTP 404) during the call"),
          { cause: error, retryable: false },
        );
      try {
        return await request(renewed.client);
      } catch (again) {
        if (!this.expired(again)) throw again;
        throw new ToolCallError(
          "transient",
          `server "${host.name}" forgot the new session at once (HTTP 404 for its session id twice)`,
          { cause: again, retryable: false },
        );
      }
    }
  }
}
