import type { McptermConfig } from "../config/config-types.js";
import type { ToolSearchSettings } from "../config/tool-search-settings.js";

/** The ranked tools together take at most this share of the window (the first one always fits). */
export const RANKED_WINDOW_SHARE = 0.1;

export interface ToolListSize {
  /** Tools that could be offered (mcpterm's own included). */
  count: number;
  /** Their definitions' estimated size in tokens. */
  tokens: number;
  /** The context window in tokens. */
  window: number;
}

/** Whether requests select their tools, and why, in a sentence for /tools and the trace. */
export function searchDecision(
  settings: ToolSearchSettings,
  size: ToolListSize,
): { on: boolean; why: string } {
  const tools = `${size.count.toLocaleString("en-US")} tools`;
  const tokens = `about ${size.tokens.toLocaleString("en-US")} tokens`;
  const share = Math.round(settings.windowShare * 100);
  switch (settings.mode) {
    case "off":
      return { on: false, why: "tools.search.mode is off: every tool is offered" };
    case "always":
      return { on: true, why: "tools.search.mode is always" };
    case "auto":
      if (size.count > settings.maxTools)
        return { on: true, why: `${tools}, more than tools.search.maxTools (${settings.maxTools})` };
      if (size.tokens > size.window * settings.windowShare)
        return {
          on: true,
          why: `the ${tools} take ${tokens}, more than ${share}% of the ${size.window.toLocaleString("en-US")}-token window`,
        };
      return {
        on: false,
        why: `the ${tools} take ${tokens}, within ${share}% of the window and tools.search.maxTools (${settings.maxTools})`,
      };
  }
}

/** Whether `server/tool` is named by an `alwaysLoad` entry (`server`, or `server/tool`). */
export function isNamedIn(entries: Iterable<string>, server: string, tool: string): boolean {
  for (const entry of entries) if (entry === server || entry === `${server}/${tool}`) return true;
  return false;
}

/** `tools.search` with every server's own `alwaysLoad` added to its `alwaysLoad` list. */
export function toolSearchSettingsOf(config: McptermConfig): ToolSearchSettings {
  const fromServers = config.servers.flatMap((server) => {
    if (server.alwaysLoad === undefined) return [];
    return server.alwaysLoad === true
      ? [server.name]
      : server.alwaysLoad.map((tool) => `${server.name}/${tool}`);
  });
  const search = config.tools.search;
  return { ...search, alwaysLoad: [...search.alwaysLoad, ...fromServers] };
}
