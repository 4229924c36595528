import { initialTranscriptState, transcriptReducer, type TranscriptAction } from "./transcript-reducer.js";
import type { TranscriptState } from "./transcript-types.js";

/** How often the screen may follow the state at most; text deltas arrive far faster. */
export const REDRAW_INTERVAL_MS = 50;

/**
 * Holds the transcript state outside React so the engine loop can dispatch without a render per
 * event: state changes at once, subscribers hear about it at most every `intervalMs`.
 */
export class TranscriptStore {
  private state: TranscriptState;
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    initial: TranscriptState = initialTranscriptState(),
    private readonly intervalMs = REDRAW_INTERVAL_MS,
  ) {
    this.state = initial;
  }

  readonly getState = (): TranscriptState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly dispatch = (action: TranscriptAction): void => {
    this.state = transcriptReducer(this.state, action);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      for (const listener of this.listeners) listener();
    }, this.intervalMs);
  };

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.listeners.clear();
  }
}
