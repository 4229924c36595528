import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import type { CliIo } from "../common/cli-io.js";
import { McpToolHost } from "../core/agent/mcp-tool-host.js";
import type { AgentTool } from "../core/agent/tool-host.js";
import { errorMessage } from "../core/errors.js";
import type { McpManager } from "../core/mcp/mcp-manager.js";
import { lintTools } from "../core/mcp/tool-lint.js";
import { findArgumentSecrets } from "../core/policy/argument-secrets.js";
import type { SecretRedactor } from "../core/policy/redact-secrets.js";
import { toolResultText } from "../core/policy/result-text.js";
import { SchemaValidator } from "../core/policy/schema-validator.js";
import { toolChanges, type ToolChange } from "../core/policy/tool-changes.js";
import type { JsonPath } from "../core/replay/json-path.js";
import { RecordedSecrets } from "../core/replay/recorded-secrets.js";
import type { RecordedCall } from "../core/trace/recorded-calls.js";
import { approveCall } from "./approve-call.js";
import { replayCalls } from "./replay-calls.js";
import { renderCallReport, summaryLine } from "./replay-report.js";
import { findingLine } from "./tool-report.js";

/** A `--call` with its arguments already read. */
export interface DevCall {
  tool: string;
  arguments: Record<string, unknown>;
}

export interface DevLoopOptions {
  server: string;
  logLevel: LoggingLevel;
  calls: readonly DevCall[];
  replay: readonly RecordedCall[];
  yes: boolean;
  allowSecretArguments: boolean;
  ignore: readonly JsonPath[];
}

/** Changes that come this close together (an editor's save, a build writing many files) are one. */
const SETTLE_MS = 150;
/** Lines of a saved call's result shown after each start. */
const RESULT_LINES = 12;

/**
 * One server under development: after every (re)start it reports the server's state, what changed
 * in its tool definitions since the last start, the lint, and the answers of the saved calls and
 * of the replay. Restarts are one at a time; changes that arrive during one restart it again.
 */
export class DevLoop {
  private before: AgentTool[] | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private pending = new Set<string>();
  private busy = false;
  private lastStatus: string | undefined;

  constructor(
    private readonly manager: McpManager,
    private readonly options: DevLoopOptions,
    private readonly context: { io: CliIo; redactor: SecretRedactor; say: (line: string) => void },
  ) {
    // A server that dies between changes is reported when it does, not at the next save.
    manager.subscribe(() => {
      const snapshot = this.snapshot();
      const status = snapshot?.status;
      if (status === this.lastStatus) return;
      this.lastStatus = status;
      if (!this.busy && status === "failed")
        this.context.say(
          `dev: ${options.server} stopped: ${snapshot?.error ?? "no reason given"}; waiting for a change to start it again`,
        );
    });
  }

  /** The first start; a change saved meanwhile restarts the server after it. */
  async start(): Promise<void> {
    this.running = this.whileBusy(async () => {
      await this.manager.start();
      await this.afterStart();
    });
    await this.running;
  }

  /** A watched file changed (or the person asked): restart once the changes settle. */
  changed(what: string): void {
    this.pending.add(what);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const what = [...this.pending].join(", ");
      this.pending.clear();
      this.running = this.running.then(() => this.restart(what));
    }, SETTLE_MS);
  }

  /** Resolves once no restart is running or waiting to run. */
  async idle(): Promise<void> {
    clearTimeout(this.timer);
    await this.running;
  }

  private async restart(what: string): Promise<void> {
    await this.whileBusy(async () => {
      this.context.say(`dev: ${what} changed; restarting ${this.options.server}`);
      await this.manager.restart(this.options.server);
      await this.afterStart();
    });
  }

  private async whileBusy(work: () => Promise<void>): Promise<void> {
    this.busy = true;
    try {
      await work();
    } catch (error) {
      this.context.say(`dev: ${errorMessage(error)}`);
    } finally {
      this.busy = false;
      this.lastStatus = this.snapshot()?.status;
    }
  }

  private snapshot(): ReturnType<McpManager["servers"]>[number] | undefined {
    return this.manager.servers().find((server) => server.name === this.options.server);
  }

  private async afterStart(): Promise<void> {
    const { say } = this.context;
    const name = this.options.server;
    const snapshot = this.snapshot();
    if (snapshot?.status !== "connected") {
      say(
        `dev: ${name} failed to start: ${snapshot?.error ?? snapshot?.status ?? "unknown"}; waiting for a change`,
      );
      return;
    }
    const pid = snapshot.pid === undefined ? "" : `, pid ${snapshot.pid}`;
    const tools = new McpToolHost(this.manager).list();
    say(`dev: ${name} is up in ${snapshot.initializeMs ?? "?"} ms${pid}, ${tools.length} tool(s)`);
    if (snapshot.capabilities?.logging)
      await this.manager
        .connection(name)
        ?.setLogLevel(this.options.logLevel)
        .catch((error: unknown) => say(`dev: could not set the log level: ${errorMessage(error)}`));
    if (this.before === undefined)
      for (const tool of tools) say(`  ${tool.name}  [${tool.tier}: ${tool.tierReason}]`);
    else for (const line of changeLines(toolChanges(this.before, tools))) say(line);
    this.before = tools;
    this.lint();
    await this.savedCalls(tools);
    if (this.options.replay.length > 0) await this.replay();
  }

  private lint(): void {
    const name = this.options.server;
    const connection = this.manager.connection(name);
    const snapshot = this.snapshot();
    const findings = lintTools([
      {
        name,
        tools: snapshot?.tools.map((tool) => tool.definition) ?? [],
        stdoutNoise: connection?.stdoutNoise() ?? [],
        initializeMs: snapshot?.initializeMs,
      },
    ]);
    const errors = findings.filter((finding) => finding.severity === "error").length;
    this.context.say(
      findings.length === 0
        ? "lint: no findings"
        : `lint: ${errors} error(s), ${findings.length - errors} warning(s)`,
    );
    for (const finding of findings) this.context.say(findingLine(finding, true));
  }

  private async savedCalls(tools: readonly AgentTool[]): Promise<void> {
    const { io, redactor, say } = this.context;
    const validator = new SchemaValidator();
    for (const call of this.options.calls) {
      const label = `call ${call.tool} ${JSON.stringify(call.arguments)}`;
      const tool = tools.find((candidate) => candidate.name === call.tool);
      if (!tool) {
        say(`${label}: not run: the server has no tool "${call.tool}"`);
        continue;
      }
      const invalid = validator.check(tool.inputSchema, call.arguments);
      if (invalid) {
        say(`${label}: not run: the arguments do not match its input schema: ${invalid}`);
        continue;
      }
      const refusal = await approveCall(
        io,
        {
          server: tool.server,
          tool: tool.name,
          tier: tool.tier,
          tierReason: tool.tierReason,
          arguments: call.arguments,
          secrets: await findArgumentSecrets(call.arguments, redactor),
        },
        { yes: this.options.yes, allowSecretArguments: this.options.allowSecretArguments, ask: false },
      );
      if (refusal) {
        say(`${label}: not run: it${refusal.what}; ${refusal.how}`);
        continue;
      }
      const startedAt = performance.now();
      try {
        const result = await this.manager.callTool(this.options.server, call.tool, call.arguments, {
          signal: io.signal,
        });
        const ms = Math.round(performance.now() - startedAt);
        say(`${label}: ${result.isError === true ? "isError" : "ok"} (${ms} ms)`);
        const text = (await redactor.redact(toolResultText(result))).text.split("\n");
        for (const line of text.slice(0, RESULT_LINES)) say(`  ${line}`);
        if (text.length > RESULT_LINES) say(`  … ${text.length - RESULT_LINES} more line(s)`);
      } catch (error) {
        say(`${label}: failed: ${errorMessage(error)}`);
      }
    }
  }

  private async replay(): Promise<void> {
    const { io, redactor, say } = this.context;
    const secrets = new RecordedSecrets();
    const redact = (text: string): string => secrets.maskLearned(redactor.redactText(text));
    const reports = await replayCalls(
      this.manager,
      this.options.replay,
      {
        yes: this.options.yes,
        allowSecretArguments: this.options.allowSecretArguments,
        ask: false,
        ignore: this.options.ignore,
      },
      { io, redactor, secrets, onReport: (report) => say(renderCallReport(report, redact).trimEnd()) },
    );
    say(`replay: ${summaryLine(reports).trimEnd()}`);
  }
}

function changeLines(changes: readonly ToolChange[]): string[] {
  if (changes.length === 0) return ["  tool definitions: no change"];
  return changes.map((change) => {
    switch (change.kind) {
      case "added":
        return `  + ${change.tool}: added`;
      case "removed":
        return `  - ${change.tool}: removed`;
      case "changed":
        return `  ~ ${change.tool}: ${change.parts.join(", ")} (an "always allow" given for it no longer holds)`;
    }
  });
}
