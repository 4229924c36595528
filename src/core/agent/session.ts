import type { ChatMessage, ChatModel, ContextWindow, ToolSpec, Usage } from "../llm/types.js";
import type { ApprovalRules } from "../policy/approval-policy.js";
import type { ArgumentSecret } from "../policy/argument-secrets.js";
import { ToolAllowances } from "../policy/tool-allowances.js";
import { SchemaValidator } from "../policy/schema-validator.js";
import { NOBODY, type Person } from "../person/person.js";
import { ContextKeeper } from "./context-keeper.js";
import type { AgentEvent, AttachedContext, MessageAttachment, TurnEndReason } from "./events.js";
import { runTurn, type KnowledgeSource } from "./run-turn.js";
import { SessionOutput, type OutputRedaction } from "./session-output.js";
import { defaultSystemPrompt, type ServerInstructions } from "./system-prompt.js";
import type { ToolHost } from "./tool-host.js";
import { isSearchTool, toolKey, type ToolSearch } from "../tool-search/index.js";
import { replaceItems } from "./replace-items.js";

/** Where a session's events are recorded (the trace), if anywhere. */
export interface EventSink {
  write(record: object): void;
}

/** A turn that ended, as the session holds it afterwards: what a saved session keeps of it. */
/**
 * What became of a call, for a resumed session to show it as it was: `done` ran and answered,
 * `failed` ran (or was tried) and failed, `denied` was refused by the person or policy,
 * `cancelled` was cut off, `not_run` never got to run (the turn stopped first).
 */
export type CallOutcome = "done" | "failed" | "denied" | "cancelled" | "not_run";

export interface SavedCall {
  server: string;
  tool: string;
  /** Absent in sessions saved before outcomes were kept: the call was proposed, nothing more is known. */
  outcome?: CallOutcome;
}

export interface EndedTurn {
  turn: number;
  at: string;
  model: string;
  /** The user's words and attachments as the events reported them (redacted). */
  input: string;
  attachments: MessageAttachment[];
  answer: string;
  reason: TurnEndReason;
  /** The calls the turn's model proposed, and what became of each (once per tool and outcome). */
  tools: SavedCall[];
  /** The whole history after the turn, without the system prompt (which is rebuilt each turn). */
  history: readonly ChatMessage[];
}

/** Where ended turns are saved (see SessionSaver); what it returns is a problem to tell. */
export interface SessionJournal {
  /** The id the session is saved under, once it has one. */
  readonly id: string | undefined;
  /** Saves the ended turn; says why when it could not be saved. */
  turnEnded(turn: EndedTurn): Promise<string | undefined>;
  /** The conversation was forgotten: the next turn starts a new saved session. */
  cleared(): void;
}

/** A conversation saved earlier, to go on with: its history and how many turns it had. */
export interface RestoredHistory {
  history: readonly ChatMessage[];
  turns: number;
  /**
   * The calls its turns made that named a tool their request offered (what a turn saves as its
   * calls), oldest first: offered again as used, as in the session that made them.
   */
  calls: ReadonlyArray<Pick<SavedCall, "server" | "tool">>;
}

export interface SessionOptions {
  model: ChatModel;
  tools: ToolHost;
  approval: ApprovalRules;
  /** Who is asked what policy says to ask, at the moment it asks (the TUI sets one); absent: NOBODY. */
  person?: () => Person;
  /** "Always allow" answers, shared with whatever else the person allows (absent: this session's own). */
  allowances?: ToolAllowances;
  maxSteps: number;
  cwd: string;
  knowledge?: KnowledgeSource;
  sink?: EventSink;
  /** How secrets are removed from what the session reports; see SessionOutput. */
  output?: OutputRedaction;
  /** Finds secrets in a call's arguments before it is decided (see findArgumentSecrets). */
  scanArguments?: (args: Record<string, unknown>) => Promise<ArgumentSecret[]>;
  /** What the connected servers said about themselves in initialize; read at each turn's start. */
  serverInstructions?: () => ServerInstructions[];
  /** Told when /model switches the model, so what else answers with it (sampling) follows. */
  onModelChange?: (model: ChatModel) => void;
  /** The validator the session's tool host checks results with, so each schema compiles once. */
  validator?: SchemaValidator;
  /** Whether answers that used tools or knowledge are asked to end with what is confirmed and what is inferred (default yes). */
  confirmedInferred?: boolean;
  /** Saves each ended turn (the TUI and one-shot sessions save to .mcpterm/sessions). */
  journal?: SessionJournal;
  /** Selects each request's tools when there are too many to offer all (tools.search). */
  toolSearch?: ToolSearch;
  now?: () => Date;
}

/** A user's message: the words, and what is attached to them for the model (see AttachedContext). */
export interface UserMessage {
  text: string;
  attached?: AttachedContext;
}

/** One turn's tokens as the model reported them (summary requests included). */
export interface TurnTokens {
  turn: number;
  usage: Usage;
}

/** What /stats shows: tokens per turn and in all, the window and how full it is, the fixed prompt. */
export interface SessionStats {
  model: string;
  turns: TurnTokens[];
  usage: Usage;
  window: ContextWindow;
  /** The last request's estimated size, or the history's now when nothing was sent yet. */
  contextTokens: number;
  /** The room a prompt has: the window less the answer's room and a margin. */
  promptBudget: number;
  systemPromptTokens: number;
  toolTokens: number;
  toolCount: number;
  compactions: number;
}

const NO_REDACTION: OutputRedaction = { redact: (text) => text, spacedSecrets: [] };

/**
 * A conversation: its history, turn count, token totals and "always allow" answers, over one
 * model and tool host. The TUI and one-shot mode both run turns through it, so they behave the
 * same; every event it yields has passed SessionOutput, and the same events reach the sink.
 */
export class Session {
  readonly conversation: ChatMessage[] = [];
  readonly usage: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  private turns = 0;
  private model: ChatModel;
  private readonly allowances: ToolAllowances;
  private readonly validator: SchemaValidator;
  private startedAt = new Date();
  private readonly context: ContextKeeper;
  private readonly turnTokens: TurnTokens[] = [];
  /** Every call id given out in this session: none is used twice, even once compaction dropped it. */
  private readonly callIds = new Set<string>();
  private lastContextTokens: number | undefined;
  private compactions = 0;

  constructor(private readonly options: SessionOptions) {
    this.model = options.model;
    this.context = new ContextKeeper(options.model);
    this.validator = options.validator ?? new SchemaValidator();
    this.allowances = options.allowances ?? new ToolAllowances();
    this.reset();
  }

  get turnCount(): number {
    return this.turns;
  }

  /** The id this conversation is saved under, once it has one. */
  get savedId(): string | undefined {
    return this.options.journal?.id;
  }

  get modelName(): string {
    return this.model.model;
  }

  get tools(): ToolHost {
    return this.options.tools;
  }

  /** Switches the model for the following turns; the history stays. */
  setModel(model: ChatModel): void {
    this.model = model;
    this.context.setModel(model);
    this.options.onModelChange?.(model);
  }

  /** Forgets the conversation (not the servers, the allowances or the knowledge base). */
  clear(): void {
    this.reset();
    this.options.toolSearch?.forgetConversation();
    this.options.journal?.cleared();
  }

  /**
   * Goes on with a saved conversation: its history follows the system prompt, its turns are
   * counted, and the tools it called are offered again as used ones.
   */
  restore(saved: RestoredHistory): void {
    replaceItems(this.conversation, [this.systemMessage(), ...saved.history]);
    this.turns = saved.turns;
    this.lastContextTokens = undefined;
    const search = this.options.toolSearch;
    search?.forgetConversation();
    // By server and tool: the names the model called them by may belong to other tools now.
    search?.noteUsed(saved.calls.map((call) => ({ server: call.server, name: call.tool })));
  }

  private reset(): void {
    this.startedAt = this.options.now?.() ?? new Date();
    this.conversation.splice(0, this.conversation.length, this.systemMessage());
    this.lastContextTokens = undefined;
  }

  /** The system prompt with the instructions of the servers connected now (they come and go). */
  private systemMessage(): ChatMessage {
    const servers = this.options.serverInstructions?.() ?? [];
    return {
      role: "system",
      content: defaultSystemPrompt(this.startedAt, this.options.cwd, servers, {
        confirmedInferred: this.options.confirmedInferred !== false,
      }),
    };
  }

  async *run(
    message: string | UserMessage,
    control: { signal?: AbortSignal } = {},
  ): AsyncGenerator<AgentEvent, void> {
    const { text: input, attached } =
      typeof message === "string" ? { text: message, attached: undefined } : message;
    this.turns += 1;
    if (this.conversation[0]?.role === "system") this.conversation[0] = this.systemMessage();
    const output = new SessionOutput(this.options.output ?? NO_REDACTION);
    const events = runTurn({
      input,
      ...(attached ? { attached } : {}),
      turn: this.turns,
      conversation: this.conversation,
      model: this.model,
      tools: this.options.tools,
      approval: this.options.approval,
      allowances: this.allowances,
      person: this.options.person?.() ?? NOBODY,
      validator: this.validator,
      ...(this.options.scanArguments ? { scanArguments: this.options.scanArguments } : {}),
      callIds: this.callIds,
      maxSteps: this.options.maxSteps,
      ...(control.signal ? { signal: control.signal } : {}),
      ...(this.options.knowledge ? { knowledge: this.options.knowledge } : {}),
      ...(this.options.toolSearch ? { toolSearch: this.options.toolSearch } : {}),
      context: this.context,
    });
    const tokens: TurnTokens = {
      turn: this.turns,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    };
    this.turnTokens.push(tokens);
    yield* this.record(events, output, tokens.usage);
  }

  /**
   * /compact: summarizes the older turns now (keeping what concerns `focus` above all) and
   * shortens old tool results; the events go to the sink like a turn's.
   */
  async *compact(focus?: string, signal?: AbortSignal): AsyncGenerator<AgentEvent, void> {
    const output = new SessionOutput(this.options.output ?? NO_REDACTION);
    const usage = this.turnTokens[this.turnTokens.length - 1]?.usage ?? { ...EMPTY_USAGE };
    const specs = this.toolSpecs();
    const events = this.context.fit(this.conversation, specs, {
      trigger: "manual",
      ...(focus ? { focus } : {}),
      ...(signal ? { signal } : {}),
    });
    yield* this.record(events, output, usage);
    this.lastContextTokens = this.context.estimate(this.conversation, specs);
  }

  async stats(): Promise<SessionStats> {
    const specs = this.toolSpecs();
    const budget = await this.context.budget();
    const system = this.conversation[0]?.role === "system" ? [this.conversation[0]] : [];
    return {
      model: this.model.model,
      turns: this.turnTokens.map((entry) => ({ turn: entry.turn, usage: { ...entry.usage } })),
      usage: { ...this.usage },
      window: await this.context.contextWindow(),
      contextTokens: this.lastContextTokens ?? this.context.estimate(this.conversation, specs),
      promptBudget: budget.prompt,
      systemPromptTokens: this.context.estimate(system, []),
      toolTokens: this.context.estimate([], specs),
      toolCount: specs.length,
      compactions: this.compactions,
    };
  }

  /** The tools the last request offered (all that are not withheld, when it did not select). */
  private toolSpecs(): ToolSpec[] {
    const search = this.options.toolSearch;
    const selection = search?.lastSelection();
    const offered = selection?.on
      ? new Set(selection.offered.map((entry) => toolKey(entry.tool)))
      : undefined;
    return this.options.tools
      .list()
      .filter((tool) => tool.withheld === undefined && (offered === undefined || offered.has(toolKey(tool))))
      .filter((tool) => offered !== undefined || !search || !isSearchTool(tool))
      .map((tool) => ({
        name: tool.modelName,
        description: tool.modelDescription,
        parameters: tool.modelInputSchema,
      }));
  }

  /** Passes events through SessionOutput to the sink and the caller, counting tokens on the way. */
  private async *record(
    events: AsyncIterable<AgentEvent>,
    output: SessionOutput,
    turn: Usage,
  ): AsyncGenerator<AgentEvent, void> {
    const ended = new TurnNotes();
    for await (const raw of events) {
      // A proposed call waits for the full rule set on its arguments; the rest pass as they come.
      const passed = raw.type === "tool_call_proposed" ? await output.passChecked(raw) : output.pass(raw);
      for (const event of passed) {
        ended.note(event);
        if (event.type === "turn_end") {
          // Saved before the turn's end is told, so a process killed after it loses nothing.
          const problem = await this.options.journal?.turnEnded(
            ended.turn(event, this.model.model, this.conversation),
          );
          if (problem) {
            const warning: AgentEvent = { type: "warning", message: problem };
            this.options.sink?.write(warning);
            yield warning;
          }
        }
        this.options.sink?.write(event);
        const usage =
          event.type === "model_step_end" || event.type === "context_compacted" ? event.usage : undefined;
        if (usage) {
          addUsage(this.usage, usage);
          addUsage(turn, usage);
        }
        if (event.type === "model_request" && event.contextTokens !== undefined)
          this.lastContextTokens = event.contextTokens;
        if (event.type === "context_compacted") {
          this.compactions += 1;
          this.lastContextTokens = event.afterTokens;
        }
        yield event;
      }
    }
  }
}

const EMPTY_USAGE: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

function addUsage(total: Usage, step: Usage): void {
  total.promptTokens += step.promptTokens;
  total.completionTokens += step.completionTokens;
  total.totalTokens += step.totalTokens;
  if (step.cachedTokens) total.cachedTokens = (total.cachedTokens ?? 0) + step.cachedTokens;
}

/** What a turn's events say that its saved record keeps: the input, attachments and tools called. */
class TurnNotes {
  private input = "";
  private at = "";
  private attachments: MessageAttachment[] = [];
  /** Each call of the turn by id, with what became of it so far. */
  private readonly calls = new Map<string, Required<SavedCall>>();

  note(event: AgentEvent): void {
    if (event.type === "turn_start") {
      this.input = event.input;
      this.at = event.at;
      this.attachments = event.attached?.attachments ?? [];
    }
    if (event.type === "tool_call_proposed" && event.call.server && event.call.tool) {
      const { server, tool } = event.call;
      this.calls.set(event.call.id, { server, tool, outcome: "not_run" });
    }
    const call = "callId" in event ? this.calls.get(event.callId) : undefined;
    if (!call) return;
    if (event.type === "approval_decided" && !event.approved) call.outcome = "denied";
    if (event.type === "tool_result" && call.outcome !== "denied")
      call.outcome = event.ok ? "done" : event.failure === "cancelled" ? "cancelled" : "failed";
  }

  turn(
    end: Extract<AgentEvent, { type: "turn_end" }>,
    model: string,
    conversation: readonly ChatMessage[],
  ): EndedTurn {
    return {
      turn: end.turn,
      at: this.at,
      model,
      input: this.input,
      attachments: this.attachments,
      answer: end.answer,
      reason: end.reason,
      tools: uniqueCalls([...this.calls.values()]),
      history: conversation.filter((message, index) => index > 0 || message.role !== "system"),
    };
  }
}

/** Calls once per tool and outcome, in the order they were first proposed. */
function uniqueCalls(calls: readonly Required<SavedCall>[]): SavedCall[] {
  const seen = new Map<string, SavedCall>();
  for (const call of calls) seen.set(`${call.server}\u0000${call.tool}\u0000${call.outcome}`, call);
  return [...seen.values()];
}
