import type { SignInPerson, SignInQuestion } from "../../core/oauth/server-auth.js";
import type { ElicitationAnswer, ElicitationQuestion } from "../../core/person/elicitation.js";

type Ask = (question: ElicitationQuestion, signal: AbortSignal) => Promise<ElicitationAnswer>;
type Notify = (level: "info" | "warning", text: string) => void;

/**
 * Signing in to a server from the TUI: the sign-in page is asked about in the panel that asks
 * to open any web page (domain on its own line, nothing opens without a yes, typing cannot
 * answer it), and while the browser is out the transcript says so and Esc gives up.
 */
export class TuiSignIn implements SignInPerson {
  private readonly waits = new Set<() => void>();

  constructor(
    private readonly ask: Ask,
    private readonly notify: Notify,
  ) {}

  async confirm(question: SignInQuestion, signal: AbortSignal): Promise<"open" | "decline"> {
    const answer = await this.ask(
      {
        mode: "url",
        server: question.server,
        message: `Sign in to "${question.server}" (OAuth): the page opens in your browser, and mcpterm waits for it to come back to 127.0.0.1.`,
        url: question.url,
        domain: question.domain,
      },
      signal,
    );
    return answer.action === "accept" ? "open" : "decline";
  }

  waiting(question: SignInQuestion, opened: boolean, cancel: () => void): () => void {
    this.waits.add(cancel);
    this.notify(
      opened ? "info" : "warning",
      opened
        ? `Waiting for you to sign in to "${question.server}" in the browser (${question.domain}); Esc gives up.`
        : `No browser could be opened: to sign in to "${question.server}", open ${question.url} yourself (${question.domain}); Esc gives up.`,
    );
    return () => this.waits.delete(cancel);
  }

  /** Gives up every sign-in waiting for the browser (Esc with no turn running); false when none was. */
  cancelWaits(): boolean {
    if (this.waits.size === 0) return false;
    for (const cancel of [...this.waits]) cancel();
    return true;
  }
}
