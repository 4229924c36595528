import type { CommandResult } from "../../core/commands/command-types.js";
import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";
import type { TranscriptItem, TranscriptState } from "./transcript-types.js";

/** A transcript item before it has an id. */
export type NewItem = TranscriptItem extends infer Item
  ? Item extends TranscriptItem
    ? Omit<Item, "id">
    : never
  : never;

/** Appends items with fresh ids. `items` only ever grows within an epoch: it feeds <Static>. */
export function append(state: TranscriptState, ...items: NewItem[]): TranscriptState {
  let id = state.nextItemId;
  const added = items.map((item) => ({ ...item, id: id++ }));
  return { ...state, items: [...state.items, ...added], nextItemId: id };
}

/** A slash command's result with every string made safe to print. */
export function sanitizeResult(result: CommandResult): CommandResult {
  switch (result.kind) {
    case "text":
      return { ...result, text: sanitizeForTerminal(result.text) };
    case "error":
      return { ...result, message: sanitizeForTerminal(result.message) };
    case "table":
      return {
        ...result,
        title: sanitizeForTerminal(result.title),
        rows: result.rows.map((row) => row.map((cell) => sanitizeForTerminal(cell))),
        ...(result.note === undefined ? {} : { note: sanitizeForTerminal(result.note) }),
      };
  }
}
