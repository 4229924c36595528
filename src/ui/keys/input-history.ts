/** Sent prompts for Up/Down, newest last; browsing keeps the unsent draft to come back to. */
export interface HistoryState {
  entries: string[];
  /** Index being shown, or undefined while editing the draft. */
  index: number | undefined;
  draft: string;
}

export const emptyHistory: HistoryState = { entries: [], index: undefined, draft: "" };

const MAX_ENTRIES = 200;

export function remember(history: HistoryState, text: string): HistoryState {
  const entries =
    history.entries.at(-1) === text ? history.entries : [...history.entries, text].slice(-MAX_ENTRIES);
  return { entries, index: undefined, draft: "" };
}

/** Up (-1) or Down (+1) from `current`; returns the text to show, or undefined to stay. */
export function browse(
  history: HistoryState,
  direction: -1 | 1,
  current: string,
): { history: HistoryState; text: string } | undefined {
  const { entries, index } = history;
  if (direction < 0) {
    if (entries.length === 0 || index === 0) return undefined;
    const next = index === undefined ? entries.length - 1 : index - 1;
    const draft = index === undefined ? current : history.draft;
    return { history: { entries, index: next, draft }, text: entries[next] ?? "" };
  }
  if (index === undefined) return undefined;
  if (index >= entries.length - 1)
    return { history: { entries, index: undefined, draft: "" }, text: history.draft };
  return { history: { ...history, index: index + 1 }, text: entries[index + 1] ?? "" };
}
