import type { LoggingLevel } from "../deprecated-mcp.js";
import { callSurvivingLoss } from "./call-after-loss.js";
import { exitSentence, type ServerExitReport } from "./server-exit.js";
import { ServerRecovery } from "./server-recovery.js";
import type { CallOptions, ServerStatus } from "./types.js";

/** What a connection lends the handling of its loss. */
export interface ConnectionLossHost {
  name: string;
  transport: "stdio" | "http" | "sse";
  /** Whether a loss is repaired: always for a remote server's session, for a local process unless told not to. */
  restarts: boolean;
  /** How the server's process ended, with what it said, once it has (describeExit). */
  exitPhrase(): string | undefined;
  exitReport(): ServerExitReport | undefined;
  isConnected(): boolean;
  /** Why the server is failed now, if it is. */
  failedReason(): string | undefined;
  stop(): Promise<void>;
  /** A whole new connection, after the lost one was stopped. */
  reconnect(): Promise<void>;
  setStatus(status: ServerStatus, error: string | undefined): void;
  note(level: LoggingLevel, text: string): void;
  redact(text: string): string;
}

/**
 * A server that went away while connected (its process exited, the connection closed): it is
 * connected again with backoff (ServerRecovery), its tools listed afresh; until then its tools
 * are not offered, and calls that met the loss wait for the outcome. A server lost over and
 * over is left failed.
 */
export class ConnectionLoss {
  private readonly recovery = new ServerRecovery(() => this.reconnectOnce());
  /** The stop that follows a loss, which a reconnection waits for. */
  private stopping: Promise<void> = Promise.resolve();
  /** How the server was last lost (its exit and stderr), for the calls that met it. */
  private lostReason: string | undefined;
  /** How the lost process ended, in a sentence, when it was a stdio server that exited. */
  private lostExit: string | undefined;

  constructor(private readonly host: ConnectionLossHost) {}

  /** The connection closed while connected, not by mcpterm's doing. */
  lost(): void {
    const { host } = this;
    const lost = `connection lost: ${host.exitPhrase() ?? "the server closed the connection"}`;
    this.lostReason = host.redact(lost);
    const exit = host.exitReport();
    this.lostExit = exit ? exitSentence(host.name, exit) : undefined;
    this.stopping = host.stop();
    if (!host.restarts) {
      host.setStatus("failed", lost);
      return;
    }
    if (this.recovery.start()) {
      host.setStatus("connecting", `${lost}; connecting again`);
      host.note("warning", `${lost}; connecting again`);
    } else {
      host.setStatus(
        "failed",
        `${lost}; it was lost too often to start it again (/mcp restart ${host.name})`,
      );
    }
  }

  /** Sends a tool call that may meet a loss of the server (see callSurvivingLoss). */
  callSurviving<T>(tool: string, send: () => Promise<T>, options: CallOptions): Promise<T> {
    const { host } = this;
    return callSurvivingLoss(send, {
      server: host.name,
      transport: host.transport,
      resendSafe: options.resendSafe === true,
      recovers: () => host.restarts,
      signal: options.signal,
      whenBack: (signal) => this.recovery.whenBack(signal),
      lostReason: () => this.lostReason,
      lostExit: () => this.lostExit,
      failedReason: () => host.failedReason(),
      note: (text) => host.note("notice", `${tool} was ${text}`),
    });
  }

  /** For good: mcpterm is closing the server; nothing brings it back any more. */
  stop(): void {
    this.recovery.stop();
  }

  /** One attempt of the recovery: a whole new connection. True once connected. */
  private async reconnectOnce(): Promise<boolean> {
    const { host } = this;
    await this.stopping;
    // close() may have run meanwhile: a server started now would outlive mcpterm.
    if (this.recovery.isStopped()) return false;
    await host.reconnect();
    if (this.recovery.isStopped()) {
      await host.stop();
      host.setStatus("closed", host.failedReason());
      return false;
    }
    if (!host.isConnected()) return false;
    host.note("notice", "connected again; its tools were listed again");
    return true;
  }
}
