import type { AgentTool } from "../agent/tool-host.js";
import {
  isSearchTool,
  SEARCH_TOOLS_NAME,
  serverToolsOffered,
  toolKey,
  type OfferReason,
  type ToolSearch,
  type ToolSelectionView,
} from "../tool-search/index.js";

/** What /tools says of one tool when the last request selected its tools: offered and why, or held back. */
export function offerColumn(view: ToolSelectionView, tool: AgentTool): string {
  const offered = view.offered.find((entry) => toolKey(entry.tool) === toolKey(tool));
  if (offered) return `offered: ${reasonText(offered.reason, offered.score, offered.matched)}`;
  const held = view.heldBack.find((entry) => toolKey(entry.tool) === toolKey(tool));
  if (!held) return "";
  if (held.remembered) return `held back (${reasonText(held.remembered, 0, [])}, no room left)`;
  if (held.score <= 0) return "held back (no match)";
  // A score that rounds to 0.00 still matched something: do not print it as if nothing had.
  return `held back (score ${held.score < 0.005 ? "below 0.01" : held.score.toFixed(2)})`;
}

function reasonText(reason: OfferReason, score: number, matched: readonly string[]): string {
  switch (reason) {
    case "score":
      return `score ${score.toFixed(2)}${matched.length > 0 ? ` (${matched.slice(0, 4).join(", ")})` : ""}`;
    case "pinned":
      return "pinned";
    case "used":
      return "used this session";
    case "found":
      return `found by ${SEARCH_TOOLS_NAME}`;
    case "always":
      return "built-in";
  }
}

/** The line under /tools: whether requests select their tools, how many the last one offered, and why. */
export function selectionNote(search: ToolSearch): string | undefined {
  const view = search.lastSelection();
  if (!view) return undefined;
  if (!view.on) return `Every tool is offered to the model: ${view.why}.`;
  const offered = serverToolsOffered(view.offered);
  return (
    `Tools are selected for each request (${view.why}): the last one offered ${offered} of ${view.total}, besides mcpterm's own tools and ${SEARCH_TOOLS_NAME}, which finds the rest. ` +
    "/tools pin <server>[/<tool>] offers one in every request." +
    (view.problem ? `\n⚠ ${view.problem}` : "")
  );
}

/** search_tools is listed only while requests select their tools. */
export function shownInList(search: ToolSearch | undefined, tool: AgentTool): boolean {
  return !search || !isSearchTool(tool) || search.lastSelection()?.on === true;
}

/** `/tools pin` and `/tools unpin`: offer a server's tools, or one, in every request this session. */
export function pinCommand(
  search: ToolSearch,
  tools: readonly AgentTool[],
  verb: "pin" | "unpin",
  target: string,
): { ok: boolean; text: string } {
  const slash = target.indexOf("/");
  const server = slash < 0 ? target : target.slice(0, slash);
  const name = slash < 0 || target.slice(slash + 1) === "" ? undefined : target.slice(slash + 1);
  const label = name === undefined ? `the tools of ${server}` : `${server}/${name}`;
  if (verb === "unpin") {
    if (search.unpin(server, name))
      return { ok: true, text: `${label} ${name === undefined ? "are" : "is"} no longer pinned.` };
    const byConfig = search.configPin(server, name);
    return byConfig === undefined
      ? { ok: false, text: `${target} was not pinned (pinned: ${search.pinned().join(", ") || "nothing"}).` }
      : {
          ok: false,
          text: `${target} is pinned by the config (alwaysLoad "${byConfig}"), not by /tools pin; remove it from the config to unpin it.`,
        };
  }
  const servers = [...new Set(tools.map((tool) => tool.server))];
  if (!servers.includes(server))
    return {
      ok: false,
      text: `There is no server named "${server}" with tools (servers: ${servers.join(", ") || "none"}).`,
    };
  const named = tools.filter((tool) => tool.server === server && (name === undefined || tool.name === name));
  if (name !== undefined && named.length === 0)
    return { ok: false, text: `Server "${server}" has no tool named "${name}".` };
  // A pin cannot bring back a tool that is never offered: say so rather than promise it.
  const never = named.find((tool) => tool.withheld !== undefined);
  if (never && named.every((tool) => tool.withheld !== undefined))
    return { ok: false, text: `${label} cannot be pinned: ${never.withheld}.` };
  search.pin(server, name);
  return {
    ok: true,
    text: `${label} ${name === undefined ? "are" : "is"} offered to the model in every request this session; /tools unpin ${target} undoes it.`,
  };
}
