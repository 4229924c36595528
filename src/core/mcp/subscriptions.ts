import type { Client, SubscriptionFilter } from "@modelcontextprotocol/client";
import { errorMessage } from "../errors.js";
import { ListenStream, type ListenEnd } from "./listen-stream.js";
import type { ProtocolEra } from "./protocol-era.js";
import { classifyRequestError, ToolCallError } from "./tool-call-error.js";

/**
 * What happened to a server's subscriptions, for the trace and the person: a stream opened (with
 * what the server agreed to), an update arrived, a stream closed (and why).
 */
export type SubscriptionEvent =
  | {
      kind: "opened";
      server: string;
      era: ProtocolEra;
      /** "list changes", or the resource's URI. */
      subject: string;
      /** On 2026: the filter the server honoured (notifications/subscriptions/acknowledged). */
      honored?: SubscriptionFilter;
    }
  | { kind: "updated"; server: string; uri: string }
  | {
      kind: "closed";
      server: string;
      subject: string;
      /** The server's doing (ListenEnd), or mcpterm's: the person unsubscribed, the connection stopped. */
      why: Exclude<ListenEnd, "local"> | "unsubscribed" | "stopped";
      relisten: boolean;
    }
  | { kind: "failed"; server: string; subject: string; reason: string; retrying: boolean };

export interface SubscriptionOptions {
  server: string;
  emit: (event: SubscriptionEvent) => void;
  /** How long the server has to acknowledge a listen or answer a subscribe. */
  timeoutMs: number;
  /**
   * The list-change stream was dropped and is open again: changes made in the gap were never
   * told, so the lists it honours must be listed afresh (not from the cache).
   */
  listsMissed?: (honored: SubscriptionFilter) => void;
}

const LIST_CHANGES = "list changes";

interface Attached {
  client: Client;
  era: ProtocolEra;
  /** 2026: the list-change stream, if the server announces any list changes. */
  lists: ListenStream | undefined;
  /** 2026: one stream per subscribed resource, so one can end without touching the others. */
  resources: Map<string, ListenStream>;
}

/**
 * A server's subscriptions across its connections. On a 2026 server list changes arrive only on
 * a `subscriptions/listen` stream, so one is opened for the lists it announces; a resource the
 * person subscribes to gets a stream of its own. A 2025 server sends list changes unasked and
 * takes `resources/subscribe`. The resources subscribed to outlive a connection: a restarted or
 * recovered server is subscribed again (`attach`).
 */
export class ServerSubscriptions {
  private readonly uris = new Set<string>();
  /** Subscriptions on their way: a second subscribe to one URI waits for the first, never opens a second stream. */
  private readonly starting = new Map<string, Promise<void>>();
  private attached: Attached | undefined;

  constructor(private readonly options: SubscriptionOptions) {}

  /** The resources subscribed to, in the order they were. */
  subscribed(): string[] {
    return [...this.uris];
  }

  /**
   * A connection is up: on 2026 the list-change stream is opened, and every resource subscribed
   * to is subscribed again. Failures are reported as events, never thrown: the connection stands.
   */
  async attach(client: Client, era: ProtocolEra): Promise<void> {
    // Taken at once, so a subscribe right after connecting finds this connection.
    const previous = this.attached;
    const attached: Attached = { client, era, lists: undefined, resources: new Map() };
    this.attached = attached;
    if (previous) await this.closeAll(previous);
    if (era === "modern") attached.lists = await this.openListChanges(attached);
    for (const uri of this.uris) {
      // Stopped meanwhile: what was opened on the way was closed with it (see keepIfAttached).
      if (this.attached !== attached) return;
      await this.start(attached, uri).catch((error: unknown) => {
        this.options.emit({
          kind: "failed",
          server: this.options.server,
          subject: uri,
          reason: errorMessage(error),
          retrying: false,
        });
      });
    }
  }

  /** The connection ends (stop, restart, loss): its streams are closed; the subscriptions stay. */
  async detach(): Promise<void> {
    const attached = this.attached;
    this.attached = undefined;
    if (attached) await this.closeAll(attached);
  }

  private async closeAll(attached: Attached): Promise<void> {
    const streams = [...(attached.lists ? [attached.lists] : []), ...attached.resources.values()];
    await Promise.all(streams.map((stream) => stream.close()));
    const subjects = [...(attached.lists ? [LIST_CHANGES] : []), ...this.uris];
    for (const subject of subjects)
      this.options.emit({
        kind: "closed",
        server: this.options.server,
        subject,
        why: "stopped",
        relisten: false,
      });
  }

  /**
   * Subscribes to `uri`; throws a ToolCallError with one sentence when the server cannot. Already
   * subscribed: nothing is sent.
   */
  async subscribe(uri: string): Promise<void> {
    const attached = this.attached;
    if (!attached) throw new ToolCallError("transient", `server "${this.options.server}" is not connected`);
    if (this.uris.has(uri)) return;
    const underWay = this.starting.get(uri);
    if (underWay) return underWay;
    if (!attached.client.getServerCapabilities()?.resources?.subscribe)
      throw new ToolCallError(
        "invalid_args",
        // Said where a session and `mcpterm read --follow` both say it: no command of either.
        `server "${this.options.server}" does not offer resource subscriptions (its capabilities have no resources.subscribe); it can still be read, once`,
      );
    // Reserved before the first await: a second subscribe meanwhile shares this one.
    const started = this.start(attached, uri).then(
      () => {
        this.uris.add(uri);
      },
      (error: unknown) => {
        // Classified here, with the time the server had: SessionRenewal knows no timeout of its own.
        throw error instanceof ToolCallError
          ? error
          : classifyRequestError(error, { server: this.options.server, timeoutMs: this.options.timeoutMs });
      },
    );
    this.starting.set(uri, started);
    try {
      await started;
    } finally {
      this.starting.delete(uri);
    }
  }

  /** Ends the subscription to `uri`; false when there was none. */
  async unsubscribe(uri: string): Promise<boolean> {
    // One on its way is settled first, so what it opens is what this closes.
    await this.starting.get(uri)?.catch(() => undefined);
    if (!this.uris.delete(uri)) return false;
    const attached = this.attached;
    if (attached?.era === "modern") {
      const stream = attached.resources.get(uri);
      attached.resources.delete(uri);
      await stream?.close();
    } else if (attached) {
      await attached.client
        .unsubscribeResource({ uri }, { timeout: this.options.timeoutMs })
        .catch(() => undefined);
    }
    this.options.emit({
      kind: "closed",
      server: this.options.server,
      subject: uri,
      why: "unsubscribed",
      relisten: false,
    });
    return true;
  }

  /** A `notifications/resources/updated` arrived: news when it is about a resource subscribed to. */
  updated(uri: string): void {
    if (this.uris.has(uri)) this.options.emit({ kind: "updated", server: this.options.server, uri });
  }

  private async start(attached: Attached, uri: string): Promise<void> {
    const { server } = this.options;
    if (attached.era === "legacy") {
      await attached.client.subscribeResource({ uri }, { timeout: this.options.timeoutMs });
      this.options.emit({ kind: "opened", server, era: "legacy", subject: uri });
      return;
    }
    const stream = this.stream(attached, uri, { resourceSubscriptions: [uri] });
    const honored = await stream.open();
    if (!(await this.keepIfAttached(attached, stream))) return;
    if (!honored.resourceSubscriptions?.includes(uri)) {
      await stream.close();
      throw new ToolCallError(
        "business",
        `server "${server}" did not take the subscription to ${uri} (its acknowledgement left it out)`,
      );
    }
    attached.resources.set(uri, stream);
  }

  private async openListChanges(attached: Attached): Promise<ListenStream | undefined> {
    const capabilities = attached.client.getServerCapabilities();
    const filter: SubscriptionFilter = {
      ...(capabilities?.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(capabilities?.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(capabilities?.resources?.listChanged ? { resourcesListChanged: true } : {}),
    };
    if (Object.keys(filter).length === 0) return undefined;
    const stream = this.stream(attached, LIST_CHANGES, filter);
    try {
      await stream.open();
      return (await this.keepIfAttached(attached, stream)) ? stream : undefined;
    } catch (error) {
      this.options.emit({
        kind: "failed",
        server: this.options.server,
        subject: LIST_CHANGES,
        reason: errorMessage(error),
        retrying: false,
      });
      return undefined;
    }
  }

  /**
   * Whether the connection `stream` was opened on is still this one's; if it was stopped while
   * the stream opened, the stream is closed at once, so nothing listens on a closed connection.
   */
  private async keepIfAttached(attached: Attached, stream: ListenStream): Promise<boolean> {
    if (this.attached === attached) return true;
    await stream.close();
    return false;
  }

  private stream(attached: Attached, subject: string, filter: SubscriptionFilter): ListenStream {
    const { server, emit, timeoutMs } = this.options;
    let openings = 0;
    return new ListenStream(attached.client, filter, timeoutMs, {
      opened: (honored) => {
        emit({ kind: "opened", server, era: "modern", subject, honored });
        openings += 1;
        if (openings > 1 && subject === LIST_CHANGES && this.attached === attached)
          this.options.listsMissed?.(honored);
      },
      closed: (why, relisten) => {
        // mcpterm's own closes are told with their reason (unsubscribe, detach); one because the
        // connection went is not news of its own: the connection's loss is.
        if (why === "local" || this.attached !== attached) return;
        emit({ kind: "closed", server, subject, why, relisten });
      },
      failed: (reason, retrying) => {
        if (this.attached === attached) emit({ kind: "failed", server, subject, reason, retrying });
      },
    });
  }
}

/** The event with what the server wrote (failure reasons) passed through `redact`. */
export function redactedEvent(event: SubscriptionEvent, redact: (text: string) => string): SubscriptionEvent {
  return event.kind === "failed" ? { ...event, reason: redact(event.reason) } : event;
}

/**
 * What a server author should find in /mcp logs about a subscription that went wrong: a stream
 * the server refused, or one it kept dropping until mcpterm gave up. Undefined for the rest.
 */
export function subscriptionProblem(event: SubscriptionEvent): string | undefined {
  if (event.kind === "failed")
    return `subscribing to ${event.subject} failed${event.retrying ? " (trying again)" : ""}: ${event.reason}`;
  if (event.kind === "closed" && event.why === "gave up")
    return `the server kept dropping the subscription to ${event.subject}; mcpterm stopped listening (/mcp restart listens again)`;
  return undefined;
}
