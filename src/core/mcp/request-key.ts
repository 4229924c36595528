/**
 * A request's id as the SDK matches an answer to it: its own requests' ids are numbers, matched
 * by `Number(id)` (so `"5"` answers 5, and `""` answers 0); an id that is no number (mcpterm's
 * `server/discover` probe) only by itself.
 */
export function requestKey(id: string | number): string {
  const number = Number(id);
  return Number.isFinite(number) ? `n:${number}` : `s:${String(id)}`;
}
