import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/**
 * Most pages one tools/list may take. Real servers send one page, or a few; a server that
 * answers every cursor with another would otherwise keep mcpterm listing for ever.
 */
export const MAX_TOOL_PAGES = 100;
/** Most tools one server may list; more are a flood no model could be offered anyway. */
export const MAX_TOOLS = 5_000;

/**
 * Every page of a server's tool list, within `deadlineMs` for all of them together. Stops with
 * a reason a person can act on when the server repeats a cursor, pages past MAX_TOOL_PAGES,
 * lists more than MAX_TOOLS or runs past the deadline.
 */
export async function listToolPages(client: Client, deadlineMs: number): Promise<Tool[]> {
  if (deadlineMs <= 0) throw new Error("no time was left to list its tools within startupTimeoutMs");
  const signal = AbortSignal.timeout(deadlineMs);
  const tools: Tool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page += 1) {
    const answer = await client
      .listTools(cursor === undefined ? {} : { cursor }, { signal, timeout: deadlineMs })
      .catch((error: unknown) => {
        if (signal.aborted)
          throw new Error(`listing its tools did not finish within ${deadlineMs} ms (startupTimeoutMs)`, {
            cause: error,
          });
        throw error;
      });
    tools.push(...answer.tools);
    if (tools.length > MAX_TOOLS)
      throw new Error(`it listed more than ${MAX_TOOLS.toLocaleString("en-US")} tools; mcpterm stops there`);
    cursor = answer.nextCursor;
    if (cursor === undefined || cursor === "") return tools;
    if (seen.has(cursor)) throw new Error(`its tool list loops: page ${page} repeats an earlier cursor`);
    seen.add(cursor);
    if (page >= MAX_TOOL_PAGES)
      throw new Error(`its tool list did not end after ${MAX_TOOL_PAGES} pages; mcpterm stops there`);
  }
}
