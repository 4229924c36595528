import type { CompletionPlan } from "../../core/context/completion-plan.js";
import type { McpManager } from "../../core/mcp/mcp-manager.js";

/** How long Tab waits for a server's completion/complete answer. */
const COMPLETION_TIMEOUT_MS = 5_000;
const CACHE_SIZE = 100;

/**
 * Asks servers for Tab's suggestions (completion/complete) and keeps their answers, so Tab
 * pressed again over the same text answers at once. A server that cannot answer in time gives none.
 */
export class ServerCompletions {
  private readonly answers = new Map<string, readonly string[]>();

  constructor(private readonly manager: Pick<McpManager, "connection">) {}

  async words(plan: Extract<CompletionPlan, { kind: "ask" }>): Promise<string[]> {
    const key = `${plan.server}\u0000${JSON.stringify(plan.params)}`;
    let values = this.answers.get(key);
    if (!values) {
      const connection = this.manager.connection(plan.server);
      if (!connection) return unique(plan.words([]));
      try {
        values = (await connection.complete(plan.params, { timeoutMs: COMPLETION_TIMEOUT_MS })).completion
          .values;
      } catch {
        return unique(plan.words([]));
      }
      if (this.answers.size >= CACHE_SIZE) this.answers.delete(this.answers.keys().next().value ?? "");
      this.answers.set(key, values);
    }
    return unique(plan.words(values));
  }
}

function unique(words: readonly string[]): string[] {
  return [...new Set(words)];
}
