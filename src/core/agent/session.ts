import type { ChatMessage, ChatModel, Usage } from "../llm/types.js";
import type { ApprovalRules } from "../policy/approval-policy.js";
import type { ArgumentSecret } from "../policy/argument-secrets.js";
import { ToolAllowances } from "../policy/tool-allowances.js";
import { SchemaValidator } from "../policy/schema-validator.js";
import type { Approver } from "./approver.js";
import type { AgentEvent, AttachedContext } from "./events.js";
import { runTurn, type KnowledgeSource } from "./run-turn.js";
import { SessionOutput, type OutputRedaction } from "./session-output.js";
import { defaultSystemPrompt, type ServerInstructions } from "./system-prompt.js";
import type { ToolHost } from "./tool-host.js";

/** Where a session's events are recorded (the trace), if anywhere. */
export interface EventSink {
  write(record: object): void;
}

export interface SessionOptions {
  model: ChatModel;
  tools: ToolHost;
  approval: ApprovalRules;
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
  now?: () => Date;
}

/** A user's message: the words, and what is attached to them for the model (see AttachedContext). */
export interface UserMessage {
  text: string;
  attached?: AttachedContext;
}

const NO_REDACTION: OutputRedaction = { redact: (text) => text, spacedSecrets: [] };

/** Policy only asks when a person is there; should it ever ask without one, nobody says yes. */
const NOBODY_TO_ASK: Approver = () =>
  Promise.resolve({ approved: false, reason: "nobody can be asked in this session" });

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
  private readonly allowances = new ToolAllowances();
  private readonly validator: SchemaValidator;
  private startedAt = new Date();

  constructor(private readonly options: SessionOptions) {
    this.model = options.model;
    this.validator = options.validator ?? new SchemaValidator();
    this.clear();
  }

  get turnCount(): number {
    return this.turns;
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
    this.options.onModelChange?.(model);
  }

  /** Forgets the conversation (not the servers, the allowances or the knowledge base). */
  clear(): void {
    this.startedAt = this.options.now?.() ?? new Date();
    this.conversation.splice(0, this.conversation.length, this.systemMessage());
  }

  /** The system prompt with the instructions of the servers connected now (they come and go). */
  private systemMessage(): ChatMessage {
    const servers = this.options.serverInstructions?.() ?? [];
    return { role: "system", content: defaultSystemPrompt(this.startedAt, this.options.cwd, servers) };
  }

  async *run(
    message: string | UserMessage,
    control: { approve?: Approver; signal?: AbortSignal } = {},
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
      approve: control.approve ?? NOBODY_TO_ASK,
      validator: this.validator,
      ...(this.options.scanArguments ? { scanArguments: this.options.scanArguments } : {}),
      maxSteps: this.options.maxSteps,
      ...(control.signal ? { signal: control.signal } : {}),
      ...(this.options.knowledge ? { knowledge: this.options.knowledge } : {}),
    });
    for await (const raw of events) {
      for (const event of output.pass(raw)) {
        this.options.sink?.write(event);
        if (event.type === "model_step_end" && event.usage) {
          this.usage.promptTokens += event.usage.promptTokens;
          this.usage.completionTokens += event.usage.completionTokens;
          this.usage.totalTokens += event.usage.totalTokens;
        }
        yield event;
      }
    }
  }
}
