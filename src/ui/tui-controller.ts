import type { ApprovalAnswer, ApprovalRequest, Approver } from "../core/agent/approver.js";
import type { Session } from "../core/agent/session.js";
import { redactDeep } from "../core/policy/redact-deep.js";
import type { AgentTool, ToolHost } from "../core/agent/tool-host.js";
import type { CommandContext, KnowledgeAccess, SlashCommand } from "../core/commands/command-types.js";
import { SLASH_COMMANDS, parseSlashInput, runSlashCommand } from "../core/commands/slash-commands.js";
import { ToolAllowances } from "../core/commands/tool-allowances.js";
import { errorMessage } from "../core/errors.js";
import type { ChatModel } from "../core/llm/types.js";
import type { McpManager } from "../core/mcp/mcp-manager.js";
import type { TranscriptAction } from "./transcript-reducer.js";

/** How the person answered an approval panel. */
export type ApprovalKey = { kind: "once" } | { kind: "always" } | { kind: "deny"; reason?: string };

export interface TuiControllerOptions {
  dispatch: (action: TranscriptAction) => void;
  manager: McpManager;
  tools: ToolHost;
  knowledge: () => KnowledgeAccess;
  /** Builds the chat model for `name` (undefined: the configured one); throws ConfigError when it cannot. */
  modelFor: (name: string | undefined) => ChatModel;
  newSession: (model: ChatModel) => Session;
  onExit: () => void;
  commands?: readonly SlashCommand[];
  /** Removes secrets from everything shown; applied to each event before the UI sees it. */
  redact?: (text: string) => string;
  /** The file this session's trace is recorded in, for /trace. */
  traceFile?: string;
}

interface PendingApproval {
  callId: string;
  tool: AgentTool;
  finish: (answer: ApprovalAnswer) => void;
}

/**
 * The TUI's link to the engine: runs turns and slash commands, answers approvals, and reports
 * everything to the transcript store. Components call it; it holds all the IO the UI triggers.
 */
export class TuiController {
  private session: Session | undefined;
  private modelProblem: string | undefined;
  private running: AbortController | undefined;
  private pending: PendingApproval | undefined;
  private readonly allowances = new ToolAllowances();
  private readonly commands: readonly SlashCommand[];
  private readonly unsubscribe: () => void;

  constructor(private readonly options: TuiControllerOptions) {
    this.commands = options.commands ?? SLASH_COMMANDS;
    try {
      this.session = options.newSession(options.modelFor(undefined));
    } catch (error) {
      this.modelProblem = errorMessage(error);
      options.dispatch({ type: "ui_notice", level: "error", text: this.modelProblem });
    }
    this.reportModel();
    this.unsubscribe = options.manager.subscribe(() => this.reportServers());
    this.reportServers();
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** A prompt for the model, or a slash command. Prompts wait while a turn runs; commands do not. */
  submit(text: string): void {
    if (parseSlashInput(text)) {
      void this.runCommand(text);
      return;
    }
    if (this.running) {
      this.options.dispatch({
        type: "ui_notice",
        level: "warning",
        text: "A turn is still running; wait for it or press Esc to cancel it.",
      });
      return;
    }
    if (!this.session) {
      this.options.dispatch({
        type: "ui_notice",
        level: "error",
        text: this.modelProblem ?? "No model is set; use /model <name>.",
      });
      return;
    }
    void this.runTurn(this.session, text);
  }

  /** Cancels the running turn; false when nothing was running. */
  cancel(): boolean {
    if (!this.running) return false;
    this.running.abort();
    return true;
  }

  answerApproval(key: ApprovalKey): void {
    const pending = this.pending;
    if (!pending) return;
    switch (key.kind) {
      case "once":
        pending.finish({ approved: true, by: "user", reason: "approved once by the user" });
        return;
      case "always":
        this.allowances.allow(pending.tool);
        pending.finish({
          approved: true,
          by: "session",
          reason: `the user allowed ${pending.tool.server}/${pending.tool.name} for this session`,
        });
        return;
      case "deny": {
        const reason = key.reason?.trim();
        pending.finish({
          approved: false,
          by: "user",
          reason: reason ? `the user denied it and said: ${reason}` : "the user denied it",
        });
        return;
      }
    }
  }

  /** Words Tab can complete: commands, server names and tool names. */
  completions(): string[] {
    const words = this.commands.map((command) => `/${command.name}`);
    for (const server of this.options.manager.servers()) words.push(server.name);
    for (const tool of this.options.tools.list()) words.push(tool.name, `${tool.server}/${tool.name}`);
    return [...new Set(words)];
  }

  dispose(): void {
    this.unsubscribe();
    this.running?.abort();
  }

  readonly approve: Approver = (request: ApprovalRequest, signal: AbortSignal) => {
    const { tool } = request;
    const allowance = this.allowances.check(tool);
    if (allowance.state === "allowed") {
      return Promise.resolve({
        approved: true,
        by: "session",
        reason: "allowed for this session by the user",
      });
    }
    if (allowance.state === "changed") {
      this.allowances.revoke(tool);
      this.options.dispatch({
        type: "ui_notice",
        level: "warning",
        text: `${tool.server}/${tool.name} changed its definition since you allowed it for this session; asking again.`,
      });
    }
    return new Promise<ApprovalAnswer>((resolve) => {
      const onAbort = (): void =>
        finish({ approved: false, by: "user", reason: "the user cancelled the turn" });
      const finish = (answer: ApprovalAnswer): void => {
        signal.removeEventListener("abort", onAbort);
        if (this.pending?.callId === request.call.id) this.pending = undefined;
        resolve(answer);
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending = { callId: request.call.id, tool, finish };
    });
  };

  private async runTurn(session: Session, text: string): Promise<void> {
    const controller = new AbortController();
    this.running = controller;
    try {
      for await (const event of session.run(text, { approve: this.approve, signal: controller.signal })) {
        const { redact } = this.options;
        this.options.dispatch(redact ? redactDeep(event, redact) : event);
      }
    } catch (error) {
      this.options.dispatch({
        type: "ui_notice",
        level: "error",
        text: `The turn failed: ${errorMessage(error)}`,
      });
    } finally {
      this.running = undefined;
    }
  }

  private async runCommand(input: string): Promise<void> {
    this.options.dispatch({ type: "ui_command_started" });
    const result = await runSlashCommand(this.context(), input);
    this.options.dispatch({ type: "ui_command_result", input: input.trim(), result });
    if (result.kind !== "error" && result.after === "exit") this.options.onExit();
  }

  private context(): CommandContext {
    return {
      manager: this.options.manager,
      tools: () => this.options.tools.list(),
      knowledge: this.options.knowledge,
      commands: this.commands,
      clearConversation: () => {
        if (this.running) return false;
        this.session?.clear();
        return true;
      },
      traceFile: () => this.options.traceFile,
      model: {
        current: () => this.session?.modelName,
        problem: () => this.modelProblem,
        switchTo: (name) => {
          const model = this.options.modelFor(name);
          if (this.session) this.session.setModel(model);
          else this.session = this.options.newSession(model);
          this.modelProblem = undefined;
          this.reportModel();
        },
      },
    };
  }

  private reportModel(): void {
    this.options.dispatch({ type: "ui_model", name: this.session?.modelName, problem: this.modelProblem });
  }

  private reportServers(): void {
    this.options.dispatch({
      type: "ui_servers",
      servers: this.options.manager
        .servers()
        .filter((server) => server.status !== "disabled")
        .map((server) => ({ name: server.name, status: server.status, error: server.error })),
    });
  }
}
