import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { listPages } from "./list-pages.js";

/** Every page of a server's tool list, within `deadlineMs` for all of them (see listPages). */
export function listToolPages(client: Client, deadlineMs: number): Promise<Tool[]> {
  return listPages({ one: "tool", many: "tools" }, deadlineMs, async (cursor, options) => {
    const answer = await client.listTools(cursor === undefined ? {} : { cursor }, options);
    return { items: answer.tools, nextCursor: answer.nextCursor };
  });
}
