/**
 * Most pages one paginated list may take. Real servers send one page, or a few; a server that
 * answers every cursor with another would otherwise keep mcpterm listing for ever.
 */
export const MAX_LIST_PAGES = 100;
/** Most items one server may list of one kind; more are a flood no person or model could use. */
export const MAX_LIST_ITEMS = 5_000;

export interface ListPage<T> {
  items: T[];
  nextCursor?: string | undefined;
}

/** What is listed, for the reasons: `{ one: "tool", many: "tools" }`. */
export interface ListedKind {
  one: string;
  many: string;
}

/**
 * Every page of one of a server's paginated lists (tools, resources, templates, prompts), within
 * `deadlineMs` for all of them together. Stops with a reason a person can act on when the server
 * repeats a cursor, pages past MAX_LIST_PAGES, lists more than MAX_LIST_ITEMS or runs past the
 * deadline.
 */
export async function listPages<T>(
  kind: ListedKind,
  deadlineMs: number,
  fetchPage: (
    cursor: string | undefined,
    options: { signal: AbortSignal; timeout: number },
  ) => Promise<ListPage<T>>,
): Promise<T[]> {
  if (deadlineMs <= 0) throw new Error(`no time was left to list its ${kind.many} within startupTimeoutMs`);
  const signal = AbortSignal.timeout(deadlineMs);
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page += 1) {
    const answer = await fetchPage(cursor, { signal, timeout: deadlineMs }).catch((error: unknown) => {
      if (signal.aborted)
        throw new Error(
          `listing its ${kind.many} did not finish within ${deadlineMs} ms (startupTimeoutMs)`,
          {
            cause: error,
          },
        );
      throw error;
    });
    // Checked before they are added, one by one: a page of 200,000 would overflow push(...page).
    if (items.length + answer.items.length > MAX_LIST_ITEMS)
      throw new Error(
        `it listed more than ${MAX_LIST_ITEMS.toLocaleString("en-US")} ${kind.many}; mcpterm stops there`,
      );
    for (const item of answer.items) items.push(item);
    cursor = answer.nextCursor;
    if (cursor === undefined || cursor === "") return items;
    if (seen.has(cursor))
      throw new Error(`its ${kind.one} list loops: page ${page} repeats an earlier cursor`);
    seen.add(cursor);
    if (page >= MAX_LIST_PAGES)
      throw new Error(`its ${kind.one} list did not end after ${MAX_LIST_PAGES} pages; mcpterm stops there`);
  }
}
