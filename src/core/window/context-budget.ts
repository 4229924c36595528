/**
 * How much of the context window a request may fill, and how the estimates are corrected by what
 * the server counted. Pure numbers; ContextKeeper (agent/) acts on them.
 */

/** Share of the prompt budget at which the conversation is compacted before sending ("near the limit"). */
export const COMPACT_AT = 0.85;
/** Share of the prompt budget a compaction aims for, so it is not needed again on the next turn. */
export const COMPACT_TO = 0.5;
/** Share of the window above which the tool definitions get a warning in /stats. */
export const TOOL_SHARE_WARNING = 0.25;

export interface Budget {
  window: number;
  /** Kept free for the answer: model.maxTokens, else 15% of the window (256 to 4,096 tokens). */
  reserve: number;
  /** The most a prompt may be, estimated: the window less the answer's room and a 5% margin. */
  prompt: number;
}

export function budgetFor(window: number, maxTokens: number | undefined): Budget {
  const reserve = maxTokens ?? Math.min(4096, Math.max(256, Math.floor(window * 0.15)));
  const margin = Math.ceil(window * 0.05);
  return { window, reserve, prompt: Math.max(0, window - reserve - margin) };
}

/**
 * Scales estimates by what the server reported for the last request it counted: the estimator
 * errs high for English and low for nothing much, and the server's own count is the truth.
 * Bounded, so one odd report cannot make a full window look empty.
 */
export class Calibration {
  private scale = 1;

  get factor(): number {
    return this.scale;
  }

  observe(estimated: number, counted: number | undefined): void {
    if (counted === undefined || counted <= 0 || estimated <= 0) return;
    this.scale = Math.min(4, Math.max(0.6, counted / estimated));
  }

  apply(estimate: number): number {
    return Math.ceil(estimate * this.scale);
  }

  reset(): void {
    this.scale = 1;
  }
}

/**
 * The window a server's context-length error names, when it names one: llama.cpp's "exceeds the
 * available context size (8192 tokens)", OpenAI's "maximum context length is 8192 tokens", vLLM's
 * "maximum context length is 4096 tokens", LM Studio's "context length of only 4096 tokens".
 */
export function windowFromError(message: string): number | undefined {
  const patterns = [
    /available context size \((\d+) tokens?\)/i,
    /maximum context length is (\d+) tokens?/i,
    /context (?:length|window) of (?:only )?(\d+) tokens?/i,
    /n_ctx(?:_slot)?\s*[=:]\s*(\d+)/i,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(message);
    const tokens = match?.[1] === undefined ? Number.NaN : Number(match[1]);
    if (Number.isInteger(tokens) && tokens >= 256) return tokens;
  }
  return undefined;
}

/**
 * How many tokens the server counted in the request it refused, when it says: llama.cpp's
 * "request (9000 tokens) exceeds the available context size", OpenAI's "your messages resulted
 * in 9000 tokens" / "However, you requested 9000 tokens".
 */
export function tokensFromError(message: string): number | undefined {
  const patterns = [
    /request \((\d+) tokens?\) exceeds/i,
    /resulted in (\d+) tokens?/i,
    /\((\d+) in the messages/i,
    /you requested (\d+) tokens?/i,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(message);
    const tokens = match?.[1] === undefined ? Number.NaN : Number(match[1]);
    if (Number.isInteger(tokens) && tokens > 0) return tokens;
  }
  return undefined;
}
