/**
 * The chat model seen by the agent loop. It is deliberately smaller than the `openai` types so
 * the loop and its tests do not depend on one vendor's request shapes.
 */

export interface ToolCallRequest {
  /** The id the model gave the call; tool messages answer it. */
  id: string;
  /** The function name as the model sent it (e.g. `filesystem__read_text_file`). */
  name: string;
  /** The raw argument text, which may not be valid JSON: the loop parses and reports it. */
  arguments: string;
}

export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; toolCalls?: ToolCallRequest[] }
  | { role: "tool"; toolCallId: string; content: string };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "unknown";

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Prompt tokens the server served from its cache, where it reports them (part of promptTokens). */
  cachedTokens?: number;
}

export interface ModelRequest {
  messages: ChatMessage[];
  tools: ToolSpec[];
  signal?: AbortSignal;
  /** Longest answer, in tokens (a server's sampling request sets it); unset: the endpoint's default. */
  maxTokens?: number;
  temperature?: number;
  /**
   * Called when the endpoint answers the request (its response headers came; again for an attempt
   * sent again): the model is at work, and what the caller gets ready now overlaps its thinking,
   * not the request.
   */
  onAnswering?: () => void;
}

export type ModelStreamEvent =
  /** A piece of the assistant's visible text. */
  | { type: "text"; delta: string }
  /** The request failed in a retryable way and will be sent again after `delayMs`. */
  | { type: "retry"; attempt: number; delayMs: number; reason: string }
  /** The step is over: the assembled text and tool calls, why it stopped, what it cost. */
  | {
      type: "done";
      text: string;
      toolCalls: ToolCallRequest[];
      finishReason: FinishReason;
      usage: Usage | undefined;
      /** Milliseconds from sending the request to the first streamed token, when there was one. */
      firstTokenMs: number | undefined;
    };

/** How many tokens the model reads at most, and who said so. */
export interface ContextWindow {
  tokens: number;
  source: "config" | "server" | "default";
  /**
   * Where it came from, for /stats: `model.contextWindow`, `GET /v1/models (max_model_len)`, …;
   * for the default, why it is used (`as the endpoint does not report it …`).
   */
  detail: string;
}

export interface ChatModel {
  readonly model: string;
  /** The answer length sent with each request when set (model.maxTokens), so room is kept for it. */
  readonly maxTokens?: number;
  /**
   * The model's context window: the configured one, else what the endpoint reports, else a default.
   * Asked once and kept; a model without it (a test's) gets the default.
   */
  contextWindow?(): Promise<ContextWindow>;
  /**
   * The window the endpoint's own context-length error reported, kept as its probe's answer is
   * (a run that learned it that way may end before the probe answers).
   */
  rememberContextWindow?(tokens: number): void;
  /**
   * Streams one model step. Throws `LlmError` for failures that retrying did not fix
   * (kind `aborted` when `signal` fired).
   */
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

export interface ModelSettings {
  model: string;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Longest silence between chunks once the answer flows; the client has a default. */
  idleTimeoutMs?: number;
  /** Longest silence from the response headers to the first token; the client has a default. */
  firstTokenTimeoutMs?: number;
  /** Sent with every request when set; unset leaves it to the server. */
  temperature?: number;
  /** Longest answer in tokens, sent with every request when set. */
  maxTokens?: number;
  /** The context window in tokens, when the person set it; else the server is asked (context-probe.ts). */
  contextWindow?: number;
  /**
   * How a message names where the model, the base URL and the key came from (`--model`,
   * `MCPTERM_MODEL`, `<config>: model.name`, `/model`), so it points at the setting to fix.
   */
  sources?: SettingSources;
}

export interface SettingSources {
  model?: string;
  baseUrl?: string;
  apiKey?: string;
}
