import type { ApprovalAnswer, ApprovalRequest, Approver } from "../core/agent/approver.js";
import type { Session } from "../core/agent/session.js";
import type { CommandContext, SlashCommand } from "../core/commands/command-types.js";
import { SLASH_COMMANDS, parseSlashInput, runSlashCommand } from "../core/commands/slash-commands.js";
import { errorMessage } from "../core/errors.js";
import type { KnowledgeAccess } from "../core/kb/index.js";
import { summarizeServer } from "../core/mcp/types.js";
import type { SessionRuntime } from "../core/session/open-session.js";
import { completionWords } from "./completion.js";
import type { TranscriptAction } from "./transcript-reducer.js";
import type { QueuedMessage } from "./transcript-types.js";

/** How the person answered an approval panel. */
export type ApprovalKey = { kind: "once" } | { kind: "always" } | { kind: "deny"; reason?: string };

export interface TuiControllerOptions {
  dispatch: (action: TranscriptAction) => void;
  /** The session's servers, tools, knowledge, models and trace, built by the core. */
  runtime: Pick<
    SessionRuntime,
    "manager" | "redactor" | "tools" | "knowledge" | "modelFor" | "newSession" | "modelProblem" | "trace"
  >;
  onExit: () => void;
  /** Clears the terminal for /clear; the transcript then starts over in a new epoch. */
  clearScreen?: () => void;
  commands?: readonly SlashCommand[];
}

interface PendingApproval {
  callId: string;
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
  /** Messages sent while a turn ran, sent in order as each turn ends. */
  private queue: QueuedMessage[] = [];
  private nextQueuedId = 1;
  /** Esc cancelled a turn: the queue waits until the person sends the next message from it. */
  private held = false;
  private readonly commands: readonly SlashCommand[];
  private readonly unsubscribe: () => void;

  constructor(private readonly options: TuiControllerOptions) {
    const { runtime } = options;
    this.commands = options.commands ?? SLASH_COMMANDS;
    if (runtime.modelProblem) {
      this.modelProblem = runtime.modelProblem.message;
      options.dispatch({ type: "ui_notice", level: "error", text: this.modelProblem });
    } else {
      this.session = runtime.newSession(runtime.modelFor());
    }
    this.reportModel();
    this.unsubscribe = runtime.manager.subscribe(() => this.reportServers());
    this.reportServers();
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** A prompt for the model, or a slash command. Prompts queue while a turn runs; commands run at once. */
  submit(text: string): void {
    if (parseSlashInput(text)) {
      void this.runCommand(text);
      return;
    }
    if (this.running) {
      this.queue.push({ id: this.nextQueuedId++, text });
      this.reportQueue();
      return;
    }
    this.start(text);
  }

  /** Cancels the running turn; false when nothing was running. Queued messages stay, held. */
  cancel(): boolean {
    if (!this.running) return false;
    this.held = true;
    this.running.abort();
    this.reportQueue();
    return true;
  }

  /** Sends the next queued message now (the queue was held), and lets the rest follow. */
  sendQueued(): void {
    this.held = false;
    if (!this.running) this.startNext();
    this.reportQueue();
  }

  /** Takes the last queued message back, to edit it in the prompt; undefined when none is queued. */
  takeLastQueued(): string | undefined {
    const last = this.queue.pop();
    this.reportQueue();
    return last?.text;
  }

  private startNext(): void {
    if (this.held) return;
    const next = this.queue.shift();
    if (next) this.start(next.text);
  }

  private start(text: string): void {
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

  answerApproval(key: ApprovalKey): void {
    const pending = this.pending;
    if (!pending) return;
    switch (key.kind) {
      case "once":
        pending.finish({ approved: true, reason: "approved once by the user" });
        return;
      case "always":
        pending.finish({
          approved: true,
          remember: true,
          reason: "approved by the user, and allowed for the rest of this session",
        });
        return;
      case "deny": {
        const reason = key.reason?.trim();
        pending.finish({
          approved: false,
          reason: reason ? `the user denied it and said: ${reason}` : "the user denied it",
        });
        return;
      }
    }
  }

  /** Words Tab can complete the word before the cursor to, given the text before it. */
  completions(before: string): string[] {
    const { manager, tools } = this.options.runtime;
    const source = {
      servers: manager.servers().map((server) => server.name),
      tools: tools.list().map((tool) => ({ server: tool.server, name: tool.name })),
    };
    return [...new Set(completionWords(before, this.commands, source))];
  }

  dispose(): void {
    this.unsubscribe();
    this.running?.abort();
  }

  /** Policy already decided that this call needs the person; this only shows the panel and waits. */
  readonly approve: Approver = (request: ApprovalRequest, signal: AbortSignal) =>
    new Promise<ApprovalAnswer>((resolve) => {
      const onAbort = (): void => finish({ approved: false, reason: "the user cancelled the turn" });
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
      this.pending = { callId: request.call.id, finish };
    });

  private async runTurn(session: Session, text: string): Promise<void> {
    const controller = new AbortController();
    this.running = controller;
    try {
      // Events leave the session redacted; the reducer sanitizes what it draws.
      for await (const event of session.run(text, { approve: this.approve, signal: controller.signal })) {
        this.options.dispatch(event);
      }
    } catch (error) {
      this.options.dispatch({
        type: "ui_notice",
        level: "error",
        text: `The turn failed: ${errorMessage(error)}`,
      });
    } finally {
      this.running = undefined;
      this.startNext();
      this.reportQueue();
    }
  }

  private async runCommand(input: string): Promise<void> {
    this.options.dispatch({ type: "ui_command_started" });
    const result = await runSlashCommand(this.context(), input);
    // Cleared before the result is drawn, so the cleared screen starts with it.
    if (result.kind !== "error" && result.after === "clear") this.options.clearScreen?.();
    this.options.dispatch({ type: "ui_command_result", input: input.trim(), result });
    if (result.kind !== "error" && result.after === "exit") this.options.onExit();
  }

  private context(): CommandContext {
    const { runtime } = this.options;
    return {
      manager: runtime.manager,
      redactor: runtime.redactor,
      tools: () => runtime.tools.list(),
      knowledge: (): KnowledgeAccess => runtime.knowledge.access(),
      commands: this.commands,
      clearConversation: () => {
        if (this.running) return false;
        this.session?.clear();
        return true;
      },
      traceFile: () => runtime.trace.file,
      model: {
        current: () => this.session?.modelName,
        problem: () => this.modelProblem,
        switchTo: (name) => {
          const model = runtime.modelFor(name);
          if (this.session) this.session.setModel(model);
          else this.session = runtime.newSession(model);
          this.modelProblem = undefined;
          this.reportModel();
        },
      },
    };
  }

  private reportQueue(): void {
    if (this.queue.length === 0) this.held = false;
    this.options.dispatch({ type: "ui_queue", queue: { messages: [...this.queue], held: this.held } });
  }

  private reportModel(): void {
    this.options.dispatch({ type: "ui_model", name: this.session?.modelName, problem: this.modelProblem });
  }

  /** Server states; their errors quote stderr, which the connection already redacted. */
  private reportServers(): void {
    this.options.dispatch({
      type: "ui_servers",
      servers: this.options.runtime.manager
        .servers()
        .filter((server) => server.status !== "disabled")
        .map(summarizeServer),
    });
  }
}
