/**
 * The questions one server put to the person (sampling, elicitation, roots) that wait for an
 * answer now. While any is open, that server's calls stop counting their silence: a server
 * cannot answer while it is being answered.
 */
export class QuestionHold {
  private open = 0;
  private readonly listeners = new Set<(open: boolean) => void>();

  get isOpen(): boolean {
    return this.open > 0;
  }

  /** Runs one question to the person; the hold lasts until it is answered or given up. */
  async during<T>(ask: () => Promise<T>): Promise<T> {
    this.open += 1;
    if (this.open === 1) this.tell(true);
    try {
      return await ask();
    } finally {
      this.open -= 1;
      if (this.open === 0) this.tell(false);
    }
  }

  /** Called with true when the first question opens and false when the last closes. */
  subscribe(listener: (open: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(open: boolean): void {
    for (const listener of this.listeners) listener(open);
  }
}
