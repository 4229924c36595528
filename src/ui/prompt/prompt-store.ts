import {
  initialPromptState,
  reducePrompt,
  type PromptAction,
  type PromptEffect,
  type PromptState,
} from "./prompt-reducer.js";

/**
 * The one copy of the prompt state. Keys can arrive faster than React renders (several in one
 * read), so each key is reduced against the latest state here, and React reads it from here.
 */
export class PromptStore {
  private state: PromptState;
  private readonly listeners = new Set<() => void>();

  /** `history`: what was sent before, oldest first, for ↑ to recall. */
  constructor(history: readonly string[] = []) {
    this.state = { ...initialPromptState, history: { ...initialPromptState.history, entries: [...history] } };
  }

  readonly getState = (): PromptState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Applies the action at once and returns the effects it asks the app to carry out. */
  readonly dispatch = (action: PromptAction): PromptEffect[] => {
    const { state, effects } = reducePrompt(this.state, action);
    if (state !== this.state) {
      this.state = state;
      for (const listener of this.listeners) listener();
    }
    return effects;
  };
}
