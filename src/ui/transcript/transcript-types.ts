import type { ApprovalSource } from "../../core/policy/approval-policy.js";
import type { CommandResult } from "../../core/commands/command-types.js";
import type { KbHit } from "../../core/kb/index.js";
import type { EvidenceSection } from "../../core/agent/answer-evidence.js";
import type { AgentEvent } from "../../core/agent/events.js";
import type { Tier } from "../../core/policy/tiers.js";
import type { ServerSummary } from "../../core/mcp/types.js";
import type { ElicitationQuestion } from "../../core/person/elicitation.js";
import type { SamplingQuestion } from "../../core/person/sampling.js";
import type { FetchQuestion } from "../../core/person/approval-request.js";

export type CallState =
  "proposed" | "awaiting_approval" | "approved" | "running" | "done" | "failed" | "denied" | "cancelled";

/** One tool call as the TUI draws it; every string in it is already sanitized for the terminal. */
export interface ToolCallView {
  callId: string;
  /** 1-based number in the session, shown as #n so a panel can be picked out. */
  number: number;
  /** `server/tool`, or the name the model used when it matched no tool. */
  label: string;
  tool: string | undefined;
  server: string | undefined;
  tier: Tier | undefined;
  tierReason: string | undefined;
  args: Record<string, unknown> | undefined;
  rawArguments: string;
  problem: string | undefined;
  state: CallState;
  progress: { progress: number; total: number | undefined; message: string | undefined } | undefined;
  /** Set once the server runs the call as an MCP task: its id, status and the server's last words on it. */
  task?: { taskId: string; status: string; statusMessage: string | undefined };
  /** What mcpterm changed in the tool's definition before the model saw it (a cut description). */
  toolNotes: string[];
  /** Why policy asked the person (the tier, a changed definition, a secret in the arguments). */
  askReason: string | undefined;
  /** 1 for the first call of its step the person was asked about, 2 for the next, … */
  askOrdinal: number | undefined;
  decision: { approved: boolean; by: ApprovalSource; reason: string } | undefined;
  /** The call's tool_result event, as the engine reported it. */
  result: Omit<Extract<AgentEvent, { type: "tool_result" }>, "type" | "callId"> | undefined;
}

export interface KnowledgeView {
  hits: KbHit[];
  /** The message the hits were found for; its words are highlighted in the excerpts. */
  query: string;
}

/** Something in the transcript that can be opened in the inspector. */
export type ExpandableRef = { kind: "tool"; callId: string } | { kind: "knowledge"; itemId: number };

/** A finished piece of the transcript: printed once into Ink's <Static>, never redrawn. */
export type TranscriptItem =
  /** The user's message; `attachments` say what went with it (resources, the prompt it came from). */
  | { kind: "user"; id: number; text: string; attachments?: string[] }
  /**
   * A finished stretch of the answer, as markdown; `first` marks the start of a reply. An answer's
   * closing confirmed and inferred parts are items with their `section` (and `label` where the
   * part's heading was), drawn apart from the body.
   */
  | {
      kind: "assistant";
      id: number;
      text: string;
      first: boolean;
      section?: "confirmed" | "inferred";
      label?: string;
    }
  | { kind: "knowledge"; id: number; knowledge: KnowledgeView }
  | { kind: "tool"; id: number; call: ToolCallView }
  | { kind: "notice"; id: number; level: "info" | "warning" | "error"; text: string }
  | { kind: "command"; id: number; input: string; result: CommandResult }
  /** A sampling request in full, printed above its panel when the panel cannot show it all. */
  | { kind: "sampling"; id: number; question: SamplingQuestion }
  /** The full content of a panel or knowledge block, printed on request. */
  | { kind: "detail"; id: number; call: ToolCallView | undefined; knowledge: KnowledgeView | undefined };

/** A server's question for the person, as the controller reports it; the core sanitized its texts. */
export type ServerQuestion =
  | { kind: "sampling"; id: number; question: SamplingQuestion }
  | { kind: "elicitation"; id: number; question: ElicitationQuestion };

/**
 * Something put to the person and not answered yet, as OpenQuestions reports it: a model's call
 * to approve (drawn from the live turn's calls), a page `/kb add` would fetch, or a server's
 * question.
 */
export type AskedQuestion =
  | {
      kind: "call";
      callId: string;
      /**
       * The arguments as the person is shown them to decide (redacted as events are, by the
       * synchronous rules): a call's events withhold every string of arguments the secret scan
       * found a secret in (arguments-shown.ts), and the panel is drawn from its event.
       */
      arguments?: Record<string, unknown> | undefined;
    }
  | { kind: "fetch"; callId: string; question: FetchQuestion }
  | ServerQuestion;

/** An asked question as the transcript draws it: a page to fetch is drawn as a call of its own. */
export type AskedView =
  Exclude<AskedQuestion, { kind: "fetch" }> | { kind: "fetch"; callId: string; call: ToolCallView };

/** What the status line shows of a server: the core's summary, narrowed to what it draws. */
export type ServerStatusView = Pick<ServerSummary, "name" | "status" | "error">;

export type KbSummary =
  { state: "loading" } | { state: "off" } | { state: "ready"; chunks: number; files: number };

/** The turn being drawn in the live region. */
export interface LiveTurn {
  number: number;
  input: string;
  /** Answer text of the current step not yet moved to the transcript (raw; sanitized when drawn). */
  text: string;
  /** Whether this reply's first text was already printed (so later chunks get no header). */
  replyStarted: boolean;
  /** The part of the answer printed last: its body, or its confirmed or inferred part. */
  section: EvidenceSection;
  /**
   * Calls not printed yet, in the order the model proposed them: those still to finish, and
   * finished ones (with their result) waiting for a call proposed before them.
   */
  calls: ToolCallView[];
  /** When the turn started (ms since the epoch, from the engine's turn_start). */
  startedAt: number;
  /** Estimated tokens of the step streaming now, until the model reports its usage. */
  streamedTokens: number;
  /**
   * The estimated size of the step's request, until the model reports its usage: a step cut off
   * by an interruption reports none, and is counted by this and what it streamed.
   */
  requestTokens: number;
  /** Answer tokens of the turn's finished steps: as the model reported them, else as estimated. */
  answerTokens: number;
  /** Calls of the current step the person has been asked about so far. */
  askedInStep: number;
  /**
   * Whether something in this turn can back a "confirmed" part: a tool that answered, passages
   * found, or content attached to the message. Without it the part is a claim, drawn as plain
   * text (a model can write the heading over a guess).
   */
  backed: boolean;
}

/** A message sent while a turn was running, waiting for its own turn. */
export interface QueuedMessage {
  id: number;
  text: string;
}

export interface QueueView {
  messages: QueuedMessage[];
  /** Esc cancelled the turn: the queue waits until the person sends the next one. */
  held: boolean;
}

export interface TranscriptState {
  items: TranscriptItem[];
  nextItemId: number;
  nextCallNumber: number;
  turn: LiveTurn | undefined;
  /**
   * What is put to the person and not answered yet, oldest first, as OpenQuestions says: the
   * first is on screen, the rest wait below it. Nothing else decides what is asked.
   */
  asking: AskedView[];
  /** Finished calls and knowledge blocks by id, for the inspector (live calls are in `turn`). */
  finishedCalls: Record<string, ToolCallView>;
  knowledge: Record<number, KnowledgeView>;
  expandables: ExpandableRef[];
  /** Index into `expandables` of the entry open in the inspector. */
  inspector: number | undefined;
  /** The inspector's first row shown (the view clamps it to the content). */
  inspectorScroll: number;
  /** The inspector shows blobs (base64, very long lines) whole instead of summarized. */
  inspectorWhole: boolean;
  servers: ServerStatusView[];
  model: { name: string | undefined; problem: string | undefined };
  kb: KbSummary;
  /** Tokens the model reported for this conversation, and estimates for steps cut off before it could. */
  tokens: number;
  /** The last request's estimated size and the window it had to fit, for the status line's `ctx n%`. */
  context: { tokens: number; window: number } | undefined;
  /** How many tools the last request offered of how many, when it selected them (`tools 14 of 527`). */
  toolSelection?: { offered: number; total: number } | undefined;
  /** Messages waiting for the running turn to end, as the controller reports them. */
  queue: QueueView;
  /** Counts /clear: a new value starts a new <Static>, since printed items cannot be taken back. */
  epoch: number;
  /** Ctrl+C was pressed once while idle; a second press exits. */
  exitArmed: boolean;
  /** Ctrl+D was pressed once on an empty prompt while a turn ran; a second press exits, stopping it. */
  leaveArmed: boolean;
  /** A slash command is running. */
  commandRunning: boolean;
  /** A paste whose end never came was ended for the person, and its end is still owed (open-paste.ts). */
  pasteOwed: boolean;
}
