/**
 * How long no key may approve: after an approval panel appears, and after each key the person
 * types. Typing runs at 100–300 ms a key and pauses between words rarely reach this, while reading
 * a panel takes longer, so a sentence typed as a panel appears keeps the guard up to its last key.
 */
export const APPROVAL_GUARD_MS = 800;

export interface GuardClock {
  /** When this panel was first known (drawn, or seen by a key that arrived first). */
  shownAt: number;
  /** When the person last typed or edited, whatever was on screen. */
  lastTypedAt: number | undefined;
}

/** Pure: whether a key arriving `at` may approve. */
export function guardPassed({ shownAt, lastTypedAt }: GuardClock, at: number): boolean {
  const since = Math.max(shownAt, lastTypedAt ?? Number.NEGATIVE_INFINITY);
  return at - since >= APPROVAL_GUARD_MS;
}
