import type {
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  ReadResourceResult,
} from "@modelcontextprotocol/client";
import type { ServerConfig } from "../config/config-types.js";
import type { LoggingLevel } from "../deprecated-mcp.js";
import type { ProtocolEra } from "./protocol-era.js";
import type { QuestionHold } from "./question-hold.js";
import type { ResponseCache } from "./response-cache.js";
import type { ServerToolList } from "./server-tool-list.js";
import type { SessionRenewal } from "./session-renewal.js";
import type { TaskDriver } from "./task-driver.js";
import { isInputRoundNotice } from "./input-rounds.js";
import { callToolWithin } from "./tool-call.js";
import { classifiedRequest, ToolCallError } from "./tool-call-error.js";
import type { CallOptions, CallToolResult } from "./types.js";

/** Log messages a 2026 server sends only for requests that ask for them (no logging/setLevel). */
const LOG_LEVEL_META = "io.modelcontextprotocol/logLevel";

/** What a connection lends the requests it sends. */
export interface ServerRequestsHost {
  name: string;
  config: Pick<ServerConfig, "timeoutMs" | "maxCallMs">;
  session: SessionRenewal;
  tools: ServerToolList;
  questions: QuestionHold;
  /** Runs the calls the server answers with a task (tasks/). */
  tasks: TaskDriver;
  /** Reads the server said may be kept (ttlMs) come from here while they may. */
  cache: ResponseCache;
  era(): ProtocolEra | undefined;
  /** Whether its requests carry HTTP headers (see ToolCallHost.sendsHeaders). */
  sendsHeaders(): boolean;
  /** See ToolCallHost.explainSilence. */
  explainSilence(): string | undefined;
  note(level: LoggingLevel, text: string): void;
}

/**
 * The requests mcpterm sends one connected server, each on its session (see SessionRenewal),
 * with its failure classified like a tool call's, and in the form of the server's era.
 */
export class ServerRequests {
  /** The level asked for with setLogLevel: a 2026 server is told it in every request. */
  private logLevel: LoggingLevel | undefined;

  constructor(private readonly host: ServerRequestsHost) {}

  /**
   * Asks the server for log messages from `level` up: `logging/setLevel` on a 2025 server; a 2026
   * server has no such request, so the level goes with every request from now on, and the
   * server sends the messages of that request alongside its answer.
   */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    const { host } = this;
    await host.session.run(async (client) => {
      if (!client.getServerCapabilities()?.logging)
        throw new ToolCallError("invalid_args", `server "${host.name}" does not offer logging`);
      if (host.era() === "modern") return;
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- 2025 servers still take logging/setLevel.
      await client.setLoggingLevel(level, { timeout: host.config.timeoutMs });
    });
    this.logLevel = level;
    host.note("info", `log level set to ${level}`);
  }

  /** Renders one of the server's prompts with `args` (prompts/get). */
  getPrompt(name: string, args: Record<string, string>, options: CallOptions): Promise<GetPromptResult> {
    return this.host.session.run((client) =>
      this.classified(
        () => client.getPrompt({ name, arguments: args, ...this.meta() }, this.requestOptions(options)),
        options,
        "the prompt",
      ),
    );
  }

  /** Suggestions for one argument of a prompt or resource template (completion/complete). */
  complete(params: CompleteRequest["params"], options: CallOptions): Promise<CompleteResult> {
    return this.host.session.run(async (client) => {
      if (!client.getServerCapabilities()?.completions) return { completion: { values: [] } };
      return this.classified(
        () => client.complete(params, this.requestOptions(options)),
        options,
        "the completion",
      );
    });
  }

  /** Calls a tool once (see callToolWithin); after a lost session only if `options.resendSafe`. */
  callTool(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const { host } = this;
    return host.session.run((client) => {
      const asksTask = host.tools.asksTask(tool, client.getServerCapabilities());
      return callToolWithin(
        {
          client,
          server: host.name,
          timeoutMs: host.config.timeoutMs,
          maxCallMs: host.config.maxCallMs,
          questions: host.questions,
          definition: (name) => host.tools.definition(name),
          sendsHeaders: () => host.sendsHeaders(),
          relist: () => host.tools.relist(client),
          passThrough: (error) => host.session.expired(error),
          tasks: host.tasks,
          asksTask,
          explainSilence: () => host.explainSilence(),
        },
        tool,
        args,
        options,
        this.meta(),
      );
    }, options.resendSafe === true);
  }

  /**
   * Reads one resource. A 2026 server's answer may be kept for as long as it said (ttlMs,
   * cacheScope): reading it again within that time is answered from mcpterm's cache
   * (ResponseCache), unless `fresh` asks for the server.
   */
  readResource(uri: string, options: CallOptions & { fresh?: boolean }): Promise<ReadResourceResult> {
    const { cache } = this.host;
    // A read answered on a retry after input_required is never kept (SEP-2549), whatever was asked:
    // roots are answered without asking the person, so the question count cannot tell. The SDK
    // reports each round it fulfils as progress of its own; seeing one marks this read a retry.
    let retried = false;
    const onprogress = (progress: { total?: number; message?: string }): void => {
      if (isInputRoundNotice(progress)) retried = true;
    };
    return this.host.session.run((client) =>
      this.classified(
        () =>
          cache.through(
            "resources/read",
            uri,
            () =>
              client.readResource(
                { uri, ...this.meta() },
                { ...this.requestOptions(options), cacheMode: "bypass", onprogress },
              ),
            { fresh: options.fresh, keepable: () => !retried },
          ),
        options,
        "the read",
      ),
    );
  }

  private requestOptions(options: CallOptions): { signal?: AbortSignal; timeout: number } {
    return {
      ...(options.signal ? { signal: options.signal } : {}),
      timeout: options.timeoutMs ?? this.host.config.timeoutMs,
    };
  }

  /** The `_meta` of a 2026 request: the log level asked for, if one was. */
  private meta(): { _meta?: Record<string, unknown> } {
    if (this.host.era() !== "modern" || this.logLevel === undefined) return {};
    return { _meta: { [LOG_LEVEL_META]: this.logLevel } };
  }

  private classified<T>(request: () => Promise<T>, options: CallOptions, what: string): Promise<T> {
    return classifiedRequest(
      request,
      {
        server: this.host.name,
        timeoutMs: options.timeoutMs ?? this.host.config.timeoutMs,
        signal: options.signal,
        passThrough: (error) => this.host.session.expired(error),
      },
      what,
    );
  }
}
