/**
 * Sent prompts for Up/Down, newest last; browsing keeps the unsent draft to come back to, and
 * each recalled entry as the person edited it, until a message is sent (as readline does): moving
 * on from an edited entry loses nothing.
 */
export interface HistoryState {
  entries: string[];
  /** Index being shown, or undefined while editing the draft. */
  index: number | undefined;
  draft: string;
  /** Recalled entries edited and left, by index: shown in their place when walked back to. */
  edits: ReadonlyMap<number, string>;
}

export const emptyHistory: HistoryState = { entries: [], index: undefined, draft: "", edits: new Map() };

const MAX_ENTRIES = 200;

export function remember(history: HistoryState, text: string): HistoryState {
  const entries =
    history.entries.at(-1) === text ? history.entries : [...history.entries, text].slice(-MAX_ENTRIES);
  return { entries, index: undefined, draft: "", edits: new Map() };
}

/** History when the prompt is given up on (Ctrl+C clears it): the next ↑ starts from the newest entry. */
export function leaveHistory(history: HistoryState): HistoryState {
  return { ...history, index: undefined, draft: "", edits: new Map() };
}

/** Up (-1) or Down (+1) from `current`; returns the text to show, or undefined to stay. */
export function browse(
  history: HistoryState,
  direction: -1 | 1,
  current: string,
): { history: HistoryState; text: string } | undefined {
  const { entries, index } = history;
  const edits = index === undefined ? history.edits : keptEdit(history.edits, index, current, entries[index]);
  const shown = (at: number): string => edits.get(at) ?? entries[at] ?? "";
  if (direction < 0) {
    if (entries.length === 0 || index === 0) return undefined;
    const next = index === undefined ? entries.length - 1 : index - 1;
    const draft = index === undefined ? current : history.draft;
    return { history: { entries, index: next, draft, edits }, text: shown(next) };
  }
  if (index === undefined) return undefined;
  if (index >= entries.length - 1)
    return { history: { entries, index: undefined, draft: "", edits }, text: history.draft };
  return { history: { ...history, index: index + 1, edits }, text: shown(index + 1) };
}

/** The edits with the entry at `index` as it is shown now: kept when it differs from the entry. */
function keptEdit(
  edits: ReadonlyMap<number, string>,
  index: number,
  current: string,
  entry: string | undefined,
): ReadonlyMap<number, string> {
  if (current === (edits.get(index) ?? entry)) return edits;
  const next = new Map(edits);
  if (current === entry) next.delete(index);
  else next.set(index, current);
  return next;
}
