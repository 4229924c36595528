import type { ChatModel } from "../../core/llm/types.js";
import type { Session } from "../../core/agent/session.js";
import { catalogEntries } from "../../core/context/catalog-view.js";
import { completionPlan } from "../../core/context/completion-plan.js";
import { fileCompletions } from "../../core/context/file-completion.js";
import { isPromptInvocation, prepareMessage } from "../../core/context/prepare-message.js";
import type { CommandContext, SlashCommand } from "../../core/commands/command-types.js";
import { SLASH_COMMANDS, parseSlashInput, runSlashCommand } from "../../core/commands/slash-commands.js";
import { errorMessage } from "../../core/errors.js";
import { describeCompaction } from "../../core/window/describe-compaction.js";
import type { KnowledgeAccess } from "../../core/kb/index.js";
import type { PageFetcher } from "../../core/kb-docs/add-document.js";
import { summarizeServer } from "../../core/mcp/types.js";
import type { ApprovalAnswer, ApprovalRequest, FetchQuestion } from "../../core/person/approval-request.js";
import type { ElicitationAnswer, ElicitationQuestion } from "../../core/person/elicitation.js";
import type { Person } from "../../core/person/person.js";
import type { SamplingAnswer, SamplingQuestion } from "../../core/person/sampling.js";
import type { SessionRuntime } from "../../core/session/open-session.js";
import {
  findSavedSession,
  letGoOfFound,
  missingSince,
  resumeNotices,
  sessionSummaries,
} from "../../core/session/resume-session.js";
import type { SavedSession } from "../../core/session/saved-session.js";
import type { EditResult, Suspend } from "../../common/external-editor.js";
import { completionWords } from "../keys/completion.js";
import { describeCompletion } from "./completion-descriptions.js";
import { OpenQuestions, type ApprovalKey } from "../panels/open-questions.js";
import type { QuestionAnswer } from "../panels/question-reducer.js";
import { inlineImageSequence, type ImageProtocol } from "../terminal/inline-image.js";
import { ServerCompletions } from "./server-completions.js";
import { TuiSignIn } from "./tui-sign-in.js";
import { kbSummaryOf } from "./kb-summary.js";
import type { TranscriptAction } from "../transcript/transcript-reducer.js";
import type { QueuedMessage } from "../transcript/transcript-types.js";
import { fullyRedactedLine } from "../../core/policy/redacted-json.js";

export interface TuiControllerOptions {
  dispatch: (action: TranscriptAction) => void;
  /** The session's servers, tools, knowledge, models and trace, built by the core. */
  runtime: Pick<
    SessionRuntime,
    | "manager"
    | "redactor"
    | "tools"
    | "knowledge"
    | "modelFor"
    | "newSession"
    | "modelProblem"
    | "trace"
    | "roots"
    | "onNotice"
    | "serversNotStarted"
    | "askPersonWith"
    | "inputHistory"
    | "allowances"
    | "onImages"
    | "config"
    | "narrowing"
    | "toolSearch"
    | "sessionMarks"
  >;
  /** The working folder: `/roots add` and `/roots remove` take paths relative to it. */
  cwd: string;
  /** How this terminal draws images; "none" (the default) leaves them described. */
  images?: ImageProtocol;
  onExit: () => void;
  /** Clears the terminal for /clear; the transcript then starts over in a new epoch. */
  clearScreen?: () => void;
  /** Ctrl+L: erases the screen (not the scrollback) and draws the live area again. */
  redrawScreen?: () => void;
  commands?: readonly SlashCommand[];
  /** How `/kb add <url>` fetches a page; without it, `/kb add` and `/kb remove` say they are unavailable. */
  fetchPage?: PageFetcher;
  /** A saved session to go on with (--continue, --resume). */
  resumed?: SavedSession;
  /** Edits the prompt's text in the person's editor (see editInExternalEditor). */
  editText?: (text: string, suspend: Suspend) => Promise<EditResult>;
}

/** Told a message was not sent after all (a mention could not be read), so the prompt can take it back. */
export type OnUnsent = (text: string) => void;

/**
 * The TUI's link to the engine: runs turns and slash commands, is the session's Person (its
 * questions go to OpenQuestions, which the panels draw and the keys answer), and reports
 * everything to the transcript store. Components call it; it holds all the IO the UI triggers.
 */
export class TuiController implements Person {
  /** Someone is at the keyboard. */
  readonly absent = undefined;
  private session: Session | undefined;
  private modelProblem: string | undefined;
  private running: AbortController | undefined;
  /** Messages sent while a turn ran, sent in order as each turn ends. */
  private queue: QueuedMessage[] = [];
  private nextQueuedId = 1;
  /** Esc cancelled a turn: the queue waits until the person sends the next message from it. */
  private held = false;
  /** Whom to tell, per queued message, when it could not be sent after all. */
  private readonly onUnsent = new Map<number, OnUnsent>();
  private readonly serverCompletions: ServerCompletions;
  private readonly commands: readonly SlashCommand[];
  private readonly unsubscribe: () => void;
  private readonly unsubscribeNotices: () => void;
  /** What is put to the person and not answered yet: the one owner of open questions. */
  private readonly questions: OpenQuestions;
  /** Signs in to servers that need OAuth (Person.signIn). */
  readonly signIn: TuiSignIn;
  /** A session to resume once a model is set (there was none when it was asked for). */
  private pendingResume: SavedSession | undefined;
  /** The resumed session whose transcript /resume draws once its result is shown. */
  private replayAfterCommand: SavedSession | undefined;
  /** The resumed session whose servers and tools are checked once the servers have settled. */
  private checkMissing: SavedSession | undefined;
  private serversSettled = false;
  /** /notices: whether servers' logged errors stay out by default, and the servers that differ. */
  private quietByDefault = false;
  private readonly noticeExceptions = new Set<string>();

  constructor(private readonly options: TuiControllerOptions) {
    const { runtime } = options;
    const notify = (level: "info" | "warning", text: string): void =>
      options.dispatch({ type: "ui_notice", level, text });
    this.questions = new OpenQuestions((asking) => options.dispatch({ type: "ui_asking", asking }), notify);
    this.signIn = new TuiSignIn((question, signal) => this.questions.elicitation(question, signal), notify);
    this.commands = options.commands ?? SLASH_COMMANDS;
    this.serverCompletions = new ServerCompletions(runtime.manager);
    if (runtime.modelProblem) {
      this.modelProblem = runtime.modelProblem.message;
      options.dispatch({ type: "ui_notice", level: "error", text: this.modelProblem });
      this.pendingResume = options.resumed;
    } else {
      this.session = runtime.newSession(runtime.modelFor(), options.resumed);
    }
    this.reportModel();
    if (options.resumed) this.showResumed(options.resumed);
    this.unsubscribe = runtime.manager.subscribe(() => this.reportServers());
    this.reportServers();
    // A server's error log or a declined request is news while it happens, not at the next command,
    // unless the person quieted that server's logged errors (/notices off).
    this.unsubscribeNotices = runtime.onNotice((notice) => {
      if (notice.level === "error" && notice.server !== undefined && this.quiet(notice.server)) return;
      options.dispatch({ type: "ui_notice", level: notice.level, text: notice.text });
    });
    runtime.askPersonWith(this);
  }

  redraw(): void {
    this.options.redrawScreen?.();
  }

  private quiet(server: string): boolean {
    return this.quietByDefault !== this.noticeExceptions.has(server);
  }

  /** The id the conversation is saved under, once a turn has been saved. */
  get savedSessionId(): string | undefined {
    return this.session?.savedId;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /**
   * A message for the model, or a slash command. Messages (a server prompt's command is one)
   * queue while a turn runs; commands run at once. `onUnsent` hears of a message that could not
   * be sent after all (a mention that could not be read), with its text.
   */
  submit(text: string, onUnsent?: OnUnsent): void {
    this.options.runtime.inputHistory.append(text);
    if (parseSlashInput(text) && !isPromptInvocation(text)) {
      void this.runCommand(text);
      return;
    }
    if (this.running) {
      const id = this.nextQueuedId++;
      this.queue.push({ id, text });
      if (onUnsent) this.onUnsent.set(id, onUnsent);
      this.reportQueue();
      return;
    }
    this.start(text, onUnsent);
  }

  /**
   * Cancels the running turn; false when nothing was running. Queued messages stay, held. With
   * no turn running, it gives up a sign-in that waits for the browser.
   */
  cancel(): boolean {
    if (!this.running) return this.signIn.cancelWaits();
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
    if (last) this.onUnsent.delete(last.id);
    this.reportQueue();
    return last?.text;
  }

  private startNext(): void {
    if (this.held) return;
    const next = this.queue.shift();
    if (!next) return;
    const onUnsent = this.onUnsent.get(next.id);
    this.onUnsent.delete(next.id);
    this.start(next.text, onUnsent);
  }

  private start(text: string, onUnsent?: OnUnsent): void {
    if (!this.session) {
      // Nothing to send it with: the words go back to the prompt, not into the void.
      this.options.dispatch({
        type: "ui_notice",
        level: "error",
        text: `${this.modelProblem ?? "No model is set; use /model <name>."} The message was not sent${onUnsent ? "; it is back in the prompt" : ""}.`,
      });
      onUnsent?.(text);
      return;
    }
    void this.runTurn(this.session, text, onUnsent);
  }

  /** The person's answer to the approval panel of `callId`. */
  answerApproval(callId: string, key: ApprovalKey): void {
    this.questions.answerApproval(callId, key);
  }

  /**
   * Words Tab can complete the word before the cursor to, given the text before it; a promise
   * when a server is asked (a template variable, a prompt argument: completion/complete).
   */
  completions(before: string): string[] | Promise<string[]> {
    const { manager, tools, redactor } = this.options.runtime;
    const servers = manager.servers();
    const connected = catalogEntries(servers);
    const plan = completionPlan(before, connected, redactor.redactText);
    const word = /\S*$/.exec(before)?.[0] ?? "";
    if (plan?.kind === "words")
      return [...new Set([...plan.words, ...fileCompletions(this.options.cwd, word)])];
    if (plan?.kind === "ask") return this.serverCompletions.words(plan);
    const source = {
      servers: servers.map((server) => server.name),
      tools: tools.list().map((tool) => ({ server: tool.server, name: tool.name })),
      prompts: connected.flatMap((entry) => entry.prompts.map((prompt) => `${entry.name}:${prompt.name}`)),
      resources: connected.flatMap((entry) =>
        entry.resources.map((resource) => ({ server: entry.name, uri: redactor.redactText(resource.uri) })),
      ),
    };
    return [...new Set(completionWords(before, this.commands, source))];
  }

  /** What a word the completion menu offers is, in a few words. */
  describe(word: string): string | undefined {
    return describeCompletion(word, this.commands, catalogEntries(this.options.runtime.manager.servers()));
  }

  async approveCall(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (request.argumentsWithheld !== true) return this.questions.approveCall(request, signal);
    // The call's event withholds every string of them (a secret only the scan saw): the person
    // deciding sees them redacted as every event's arguments are, by the full rule set (a key,
    // a value under a secret's name; a string the scan found a part of a key in is masked by
    // then, SecretRedactor.withhold), so they see where the call would go.
    const line = await fullyRedactedLine(
      { shown: request.arguments },
      this.options.runtime.redactor.forRecords,
    );
    const { shown } = JSON.parse(line) as { shown: Record<string, unknown> };
    return this.questions.approveCall({ ...request, arguments: shown }, signal);
  }

  approveFetch(question: FetchQuestion, signal: AbortSignal): Promise<ApprovalAnswer> {
    return this.questions.approveFetch(question, signal);
  }

  /** The project's config was trusted, or not, at the terminal before the TUI started. */
  trustConfig(): Promise<boolean> {
    return Promise.resolve(false);
  }

  sampling(question: SamplingQuestion, signal: AbortSignal): Promise<SamplingAnswer> {
    return this.questions.sampling(question, signal);
  }

  elicitation(question: ElicitationQuestion, signal: AbortSignal): Promise<ElicitationAnswer> {
    return this.questions.elicitation(question, signal);
  }

  answerQuestion(id: number, answer: QuestionAnswer): void {
    this.questions.answerQuestion(id, answer);
  }

  /**
   * Calls `draw` with the escape sequence of each image a tool returns, where the terminal can
   * draw it; returns the unsubscribe. Nothing is called when the terminal draws no images.
   */
  onImageSequences(draw: (sequence: string) => void): () => void {
    const protocol = this.options.images ?? "none";
    if (protocol === "none") return () => undefined;
    return this.options.runtime.onImages((images) => {
      for (const image of images) {
        const sequence = inlineImageSequence(protocol, image.mimeType, image.data);
        if (sequence) draw(sequence);
      }
    });
  }

  /** Ctrl+G: the prompt's text in $VISUAL / $EDITOR, while the terminal is handed to it. */
  editText(text: string, suspend: Suspend): Promise<EditResult> {
    return this.options.editText
      ? this.options.editText(text, suspend)
      : Promise.resolve({ ok: false, reason: "No external editor can be opened here." });
  }

  /** The servers have settled (connected or failed): a resumed session's missing tools can be told. */
  onServersSettled(): void {
    this.serversSettled = true;
    this.reportMissing();
  }

  dispose(): void {
    this.options.runtime.askPersonWith(undefined);
    this.questions.close();
    this.unsubscribe();
    this.unsubscribeNotices();
    this.running?.abort();
  }

  private async runTurn(session: Session, text: string, onUnsent: OnUnsent | undefined): Promise<void> {
    const controller = new AbortController();
    this.running = controller;
    const { signal } = controller;
    try {
      // Mentions are read and a prompt's command rendered first; what cannot be is not sent.
      const { manager, redactor } = this.options.runtime;
      const prepared = await prepareMessage(text, { manager, redactor, signal, cwd: this.options.cwd });
      if (!prepared.ok || signal.aborted) {
        this.options.dispatch({
          type: "ui_notice",
          level: signal.aborted ? "info" : "error",
          text: prepared.ok || signal.aborted ? "Cancelled before the message was sent." : prepared.reason,
        });
        onUnsent?.(text);
        return;
      }
      // Events leave the session redacted; the reducer sanitizes what it draws.
      for await (const event of session.run(prepared.message, { signal })) {
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
    // /kb add, remove and reindex change the index: the status line shows its size as it is now.
    const knowledge = this.options.runtime.knowledge.access();
    if (knowledge.state === "ready") this.options.dispatch({ type: "ui_kb", kb: kbSummaryOf(knowledge) });
    const replay = this.replayAfterCommand;
    this.replayAfterCommand = undefined;
    if (replay) this.showResumed(replay);
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
      ...(runtime.serversNotStarted === undefined ? {} : { serversNotStarted: runtime.serversNotStarted }),
      ...(this.options.fetchPage
        ? {
            documents: {
              cwd: this.options.cwd,
              fetchPage: this.options.fetchPage,
              person: this,
              allowances: runtime.allowances,
            },
          }
        : {}),
      narrowing: runtime.narrowing,
      allowances: runtime.allowances,
      notices: {
        quieted: () => ({ all: this.quietByDefault, except: [...this.noticeExceptions] }),
        set: (server, shown) => {
          if (server === undefined) {
            this.quietByDefault = !shown;
            this.noticeExceptions.clear();
          } else if (shown === this.quietByDefault) this.noticeExceptions.add(server);
          else this.noticeExceptions.delete(server);
        },
      },
      toolSearch: runtime.toolSearch,
      conversation: {
        // Read when /stats asks, not each time a command runs.
        get pricing() {
          return runtime.config.model.pricing;
        },
        stats: async () => this.session?.stats(),
        compact: (focus) => this.compact(focus),
      },
      roots: {
        paths: () => runtime.roots.paths(),
        add: (folder) => runtime.roots.add(folder, this.options.cwd),
        remove: (folder) => runtime.roots.remove(folder, this.options.cwd),
      },
      sessions: {
        list: () => sessionSummaries(this.options.cwd),
        resume: (id) => this.resume(id),
      },
      model: {
        current: () => this.session?.modelName,
        problem: () => this.modelProblem,
        switchTo: (name) => {
          let model: ChatModel;
          try {
            model = runtime.modelFor(name);
          } catch (error) {
            // What stands in the way now (a key the endpoint needs) is what a message is told.
            if (!this.session) this.modelProblem = errorMessage(error);
            throw error;
          }
          if (this.session) this.session.setModel(model);
          else this.session = runtime.newSession(model, this.pendingResume);
          this.pendingResume = undefined;
          this.modelProblem = undefined;
          this.reportModel();
        },
      },
    };
  }

  /** /compact: not while a turn runs (it is still adding to the history); Esc cannot cancel it yet. */
  private async compact(
    focus: string | undefined,
  ): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
    const { session } = this;
    if (!session)
      return { ok: false, reason: "No model is set, so there is nothing to compact (/model <name>)." };
    if (this.running)
      return { ok: false, reason: "A turn is still running; press Esc to cancel it first, or wait." };
    const said: string[] = [];
    try {
      for await (const event of session.compact(focus)) {
        if (event.type === "context_compacted") said.push(describeCompaction(event));
        if (event.type === "warning") said.push(event.message);
      }
    } catch (error) {
      return { ok: false, reason: errorMessage(error) };
    }
    const stats = await session.stats();
    this.options.dispatch({ type: "ui_context", tokens: stats.contextTokens, window: stats.window.tokens });
    return {
      ok: true,
      text: said.join("\n") || "Nothing to compact: the conversation has no earlier turns or long results.",
    };
  }

  /** /resume: the conversation becomes the saved one (a new Session over the same runtime). */
  private async resume(id: string): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
    if (this.running) return { ok: false, reason: "A turn is still running; press Esc to cancel it first." };
    let saved: SavedSession;
    try {
      saved = await findSavedSession(this.options.cwd, { kind: "id", id }, this.options.runtime.sessionMarks);
    } catch (error) {
      return { ok: false, reason: errorMessage(error) };
    }
    const { runtime } = this.options;
    if (this.session) this.session = runtime.newSession(runtime.modelFor(this.session.modelName), saved);
    else {
      // A pending resume replaced before any turn lets go of the session it had claimed.
      if (this.pendingResume) letGoOfFound(this.pendingResume);
      this.pendingResume = saved;
    }
    this.replayAfterCommand = saved;
    return { ok: true, text: `Going on with session ${saved.id}.` };
  }

  private showResumed(saved: SavedSession): void {
    const notes = resumeNotices(saved, { cwd: this.options.cwd, model: this.session?.modelName });
    this.options.dispatch({ type: "ui_resumed", turns: saved.turns, notes });
    this.checkMissing = saved;
    if (this.serversSettled) this.reportMissing();
  }

  private reportMissing(): void {
    const saved = this.checkMissing;
    if (!saved) return;
    this.checkMissing = undefined;
    const { manager, tools } = this.options.runtime;
    for (const text of missingSince(saved, { servers: manager.servers(), tools: tools.list() }))
      this.options.dispatch({ type: "ui_notice", level: "warning", text });
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
