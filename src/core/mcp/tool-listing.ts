import type { Client, Tool } from "@modelcontextprotocol/client";
import { listPages } from "./list-pages.js";
import type { ResponseCache } from "./response-cache.js";

/**
 * Every page of a server's tool list, within `deadlineMs` for all of them (see listPages). Page by
 * page with mcpterm's own limits and reasons, not the SDK's aggregate listing; which tools are
 * then withheld, and why, is tool-lint's to say. A page the server said may be kept, and still
 * may, comes from `cache`.
 */
export function listToolPages(client: Client, deadlineMs: number, cache: ResponseCache): Promise<Tool[]> {
  return listPages({ one: "tool", many: "tools" }, deadlineMs, async (cursor, options) => {
    const answer = await cache.through("tools/list", cursor ?? "", () =>
      client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } }, options),
    );
    return { items: answer.tools, nextCursor: answer.nextCursor };
  });
}
