import type { McptermConfig } from "../config/config-types.js";
import type { ToolSearchSettings } from "../config/tool-search-settings.js";
import { groupedNumber } from "../text/grouped-number.js";
import type { OfferBudget } from "./select-tools.js";

/** The ranked tools together take at most this share of the window (the first may take more). */
export const RANKED_WINDOW_SHARE = 0.1;

/**
 * What the tools of a request that selects them may take: together, the share of the window
 * past which requests select (`windowShare`), so found and used tools can never crowd the
 * window; the ranked ones, a tenth of it.
 */
export function offerBudget(settings: ToolSearchSettings, window: number): OfferBudget {
  return {
    offer: Math.floor(window * settings.windowShare),
    ranked: Math.floor(window * RANKED_WINDOW_SHARE),
  };
}

/** Why a request's tools do not fit in their budget, in one sentence that says what to do. */
export function overBudgetSentence(
  settings: ToolSearchSettings,
  window: number,
  over: { tokens: number; pinned: number },
): string {
  const n = groupedNumber;
  const share = Math.round(settings.windowShare * 100);
  const what =
    over.pinned > 0 ? `mcpterm's own tools and the ${n(over.pinned)} pinned ones` : "mcpterm's own tools";
  const todo =
    over.pinned > 0
      ? "pin fewer (/tools unpin, or alwaysLoad in the config) or raise tools.search.windowShare"
      : "raise tools.search.windowShare or use a model with a larger window (model.contextWindow)";
  return `${what} take about ${n(over.tokens)} tokens, more than the ${n(offerBudget(settings, window).offer)} (${share}% of the ${n(window)}-token window) a request's tools may take, so no other tool fits; ${todo}.`;
}

export interface ToolListSize {
  /** The servers' tools that could be offered (mcpterm's own left out, as /tools counts them). */
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
  const tools = `${groupedNumber(size.count)} tools`;
  const tokens = `about ${groupedNumber(size.tokens)} tokens`;
  const share = Math.round(settings.windowShare * 100);
  // With no server tools there is nothing to select or search: search_tools would be noise.
  if (size.count === 0 && settings.mode !== "off") return { on: false, why: "no server lists any tools" };
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
          why: `the ${tools} take ${tokens}, more than ${share}% of the ${groupedNumber(size.window)}-token window`,
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
