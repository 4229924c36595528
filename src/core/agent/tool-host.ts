import type { TaskStatus } from "../mcp/task-state.js";
import type { FailureClass } from "../policy/failure-class.js";
import type { Tier } from "../policy/tiers.js";

/** The server name mcpterm's own tools are shown under; whether a tool is one is `builtIn`, not this name. */
export const BUILT_IN_SERVER = "mcpterm";

/** A tool the model may call, with its tier already decided. */
export interface AgentTool {
  /** The function name the model sees. */
  modelName: string;
  server: string;
  name: string;
  /** The tool's title as the server gave it, when it gave one (searched by tool search). */
  title?: string;
  /** The description as the server gave it: what an "always allow" is tied to. */
  description: string;
  /** What the model is sent instead: invisible characters removed, capped (see tool-description.ts). */
  modelDescription: string;
  /** The schema as the server gave it: what arguments are checked against. */
  inputSchema: Record<string, unknown>;
  /** What the model is sent instead: every text in it cleaned and capped (see schema-for-model.ts). */
  modelInputSchema: Record<string, unknown>;
  /** The schema the tool promises its structuredContent keeps, if it declares one. */
  outputSchema?: Record<string, unknown>;
  tier: Tier;
  tierReason: string;
  /** What mcpterm changed in the definition before the model saw it (a description cut, …). */
  notes: string[];
  /** Why the tool is not offered to the model at all (see tool-withhold.ts); listed, never called by it. */
  withheld?: string;
  /** Set by the hosts of mcpterm's own tools only (tool-search/built-in.ts); a server's tool never has it. */
  builtIn?: true;
}

/**
 * What a call produced. A failure is an outcome too, never an exception. What the model reads and
 * what a person is shown are decided here, by whoever made the outcome, as two fields.
 */
export interface ToolOutcome {
  ok: boolean;
  /** The tool message the model receives (an MCP result marked as untrusted data). */
  forModel: string;
  /** What a person is shown: the result or the reason it failed, without instructions to the model. */
  display: string;
  /** The result's structuredContent as indented JSON, redacted and capped like `display`. */
  structured?: string;
  /** Why the result breaks its tool's outputSchema, in one sentence (see outputSchemaProblem). */
  outputSchemaProblem?: string;
  /** The images, sounds and binary resources in the result, described (`image/png, 12.3 KB`). */
  attachments?: string[];
  truncated: boolean;
  failure: FailureClass | undefined;
  /** Rules that matched secrets removed from the content, one entry per secret. */
  redactions?: string[];
  /**
   * Set when the call was lost because its server's process ended (in the call, or before it):
   * how it ended and the stderr line that says why (`server "x" exited (code 1): TypeError: …`).
   */
  serverExited?: string;
}

/** A tool the model names that was offered before, whose server is gone now, and why. */
export interface UnavailableTool {
  server: string;
  tool: string;
  /** `server "x" exited (code 1): TypeError: … — its tools are unavailable`. */
  reason: string;
  /** How the server's process ended, when it did (rather than, say, its remote connection failing). */
  serverExited?: string;
}

export interface ToolCallContext {
  /** The model's id for the call, so hosts can relate what they record to the turn's events. */
  callId: string;
  signal: AbortSignal;
  /** The most characters the result may put into the model's context (the window's room); hosts have a default. */
  resultCharLimit?: number;
  /** The most estimated tokens of text it may put there, measured on the text (CJK is a token a character). */
  resultTokenLimit?: number;
  onProgress: (progress: { progress: number; total?: number; message?: string }) => void;
  /** When the server runs the call as an MCP task: its creation and each change of its status. */
  onTask?: (update: { taskId: string; status: TaskStatus; statusMessage: string | undefined }) => void;
}

/** Where the loop finds and calls tools: the MCP servers, built-in tools, or a test's own. */
export interface ToolHost {
  /** The tools available now; servers that are still starting simply are not listed yet. */
  list(): AgentTool[];
  /**
   * The tool as its server defines it right now, after any change the server announced has been
   * listed (waiting briefly for it); undefined when it is gone or its list did not come in time.
   * Hosts whose tools never change need not implement it.
   */
  current?(tool: AgentTool): Promise<AgentTool | undefined>;
  call(tool: AgentTool, args: Record<string, unknown>, context: ToolCallContext): Promise<ToolOutcome>;
  /**
   * For a name the model calls that no listed tool has: the tool it named before its server went
   * down, and why it is gone, so the model is told that rather than "unknown tool".
   */
  unavailable?(modelName: string): UnavailableTool | undefined;
}
