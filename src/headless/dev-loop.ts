import type { LoggingLevel } from "../core/deprecated-mcp.js";
import type { CliIo } from "../common/cli-io.js";
import { McpToolHost } from "../core/agent/mcp-tool-host.js";
import type { AgentTool } from "../core/agent/tool-host.js";
import { errorMessage } from "../core/errors.js";
import type { McpManager } from "../core/mcp/mcp-manager.js";
import { lintTools } from "../core/mcp/tool-lint.js";
import type { SecretRedactor } from "../core/policy/redact-secrets.js";
import { SchemaValidator } from "../core/policy/schema-validator.js";
import { toolChanges, type ToolChange } from "../core/policy/tool-changes.js";
import type { IgnoreRule } from "../core/replay/ignore-rules.js";
import { RecordedSecrets } from "../core/replay/recorded-secrets.js";
import type { RecordedCall } from "../core/trace/recorded-calls.js";
import { runDevCall, type DevCall } from "./dev-calls.js";
import { replayCalls } from "./replay-calls.js";
import { renderCallReport, summaryLine } from "./replay-report.js";
import { listedToolName } from "../core/policy/tool-withhold.js";
import { findingLine } from "./tool-report.js";

export interface DevLoopOptions {
  server: string;
  logLevel: LoggingLevel;
  calls: readonly DevCall[];
  replay: readonly RecordedCall[];
  yes: boolean;
  allowSecretArguments: boolean;
  ignore: readonly IgnoreRule[];
  slowFactor: number;
  slowMs: number;
}

/** Changes that come this close together (an editor's save, a build writing many files) are one. */
const SETTLE_MS = 150;

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
  /** Stops the saved calls and the replay of the current start, when a change means a new one. */
  private round = new AbortController();
  /** Restarts queued and not yet begun: a start with one behind it runs no calls. */
  private restartsWaiting = 0;

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
      // A call the old code hangs in must not hold up the restart that brings the fix.
      this.round.abort(new Error(`${what} changed`));
      this.restartsWaiting += 1;
      this.running = this.running.then(() => this.restart(what));
    }, SETTLE_MS);
  }

  /** Resolves once no restart is running or waiting to run. */
  async idle(): Promise<void> {
    clearTimeout(this.timer);
    await this.running;
  }

  private async restart(what: string): Promise<void> {
    this.restartsWaiting -= 1;
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
    this.round = new AbortController();
    // A change saved while this start was under way: the restart after it runs the calls.
    if (this.restartsWaiting > 0) this.round.abort(new Error("changed again"));
    // The session's signal (Ctrl+C) and this start's: a change cancels what this start runs.
    const io = { ...this.context.io, signal: AbortSignal.any([this.context.io.signal, this.round.signal]) };
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
    await this.savedCalls(tools, io);
    if (this.options.replay.length > 0 && !io.signal.aborted && (await this.stillUp("the replay")))
      await this.replay(io);
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
        probe: snapshot?.probe,
        refusedTools: snapshot?.refusedTools ?? [],
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

  private async savedCalls(tools: readonly AgentTool[], io: CliIo): Promise<void> {
    const { redactor, say } = this.context;
    const validator = new SchemaValidator();
    await validator.ready();
    for (const call of this.options.calls) {
      if (io.signal.aborted || !(await this.stillUp(`call ${call.tool}`))) return;
      await runDevCall(call, tools, {
        io,
        redactor,
        say,
        manager: this.manager,
        server: this.options.server,
        validator,
        yes: this.options.yes,
        allowSecretArguments: this.options.allowSecretArguments,
      });
    }
  }

  /**
   * Whether the server is up for the next call: one that an earlier call took down (its crash
   * was just told) is started again, so the calls after it and the replay still run.
   */
  private async stillUp(next: string): Promise<boolean> {
    if (this.snapshot()?.status === "connected") return true;
    const name = this.options.server;
    this.context.say(`dev: ${name} is down; starting it again for ${next}`);
    await this.manager.restart(name);
    const snapshot = this.snapshot();
    if (snapshot?.status === "connected") return true;
    this.context.say(
      `dev: ${name} did not start again: ${snapshot?.error ?? "no reason given"}; waiting for a change`,
    );
    return false;
  }

  private async replay(io: CliIo): Promise<void> {
    const { redactor, say } = this.context;
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
        slowFactor: this.options.slowFactor,
        slowMs: this.options.slowMs,
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
        return `  + ${listedToolName(change.tool)}: added`;
      case "removed":
        return `  - ${listedToolName(change.tool)}: removed`;
      case "changed":
        return `  ~ ${listedToolName(change.tool)}: ${change.parts.join(", ")} (an "always allow" given for it no longer holds)`;
    }
  });
}
