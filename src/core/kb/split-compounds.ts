import { isCjkTerm } from "./tokenizer.js";

/**
 * The query's terms with split compounds joined: "roll back" asks for what a runbook calls
 * "rollback", "data base" for "database", "work flow" for "workflow" (stop words such as "in"
 * or "up" are gone before this, so "log in" is just "log"). Two neighbouring terms become one
 * when the index holds them written together and at least one of the two matched nothing on
 * its own, so a query whose words are all there keeps them as they are. Undefined when nothing
 * was joined.
 */
export function joinSplitCompounds(
  terms: readonly string[],
  matched: (term: string) => boolean,
  indexed: (term: string) => boolean,
): string[] | undefined {
  const joined: string[] = [];
  let changed = false;
  for (let i = 0; i < terms.length; i++) {
    const first = terms[i] ?? "";
    const second = terms[i + 1];
    const candidate = second === undefined ? undefined : `${first}${second}`;
    if (
      candidate !== undefined &&
      second !== undefined &&
      !isCjkTerm(first) &&
      !isCjkTerm(second) &&
      (!matched(first) || !matched(second)) &&
      indexed(candidate)
    ) {
      joined.push(candidate);
      changed = true;
      i++;
    } else joined.push(first);
  }
  return changed ? joined : undefined;
}
