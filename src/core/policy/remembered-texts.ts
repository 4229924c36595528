/**
 * How the redaction remembers what it found out about a short text (clean, nothing for
 * secretlint, a name that names no secret): the same few texts come back in every frame and
 * record a call makes ("2.0", "tools/call", `progressToken`), so a lookup replaces the work.
 * Texts longer than REMEMBERED_MAX_CHARS are never kept; past REMEMBERED_TEXTS the store is
 * forgotten at once, which keeps it a plain lookup, and a server inventing texts cannot grow it.
 */
const REMEMBERED_TEXTS = 4096;
const REMEMBERED_MAX_CHARS = 128;

/** Keeps `text` in `texts`, if it is short enough. */
export function rememberShort(texts: Set<string>, text: string): void {
  if (roomFor(texts, text)) texts.add(text);
}

/** Keeps what was found out about `text` in `answers`, if it is short enough. */
export function rememberShortAnswer<T>(answers: Map<string, T>, text: string, answer: T): void {
  if (roomFor(answers, text)) answers.set(text, answer);
}

function roomFor(store: { readonly size: number; clear(): void }, text: string): boolean {
  if (text.length > REMEMBERED_MAX_CHARS) return false;
  if (store.size >= REMEMBERED_TEXTS) store.clear();
  return true;
}
