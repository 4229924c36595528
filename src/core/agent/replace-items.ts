/**
 * Makes `target` hold `items`, in place (others hold the same array). Not `splice(0, n, ...items)`:
 * spreading passes every item as an argument, and a resumed session of 140,000 messages exceeds
 * what a call may take ("Maximum call stack size exceeded").
 */
export function replaceItems<T>(target: T[], items: readonly T[]): void {
  target.length = 0;
  for (const item of items) target.push(item);
}
