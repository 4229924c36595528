import type { AgentTool } from "../agent/tool-host.js";
import { BUILT_IN_SERVER } from "../agent/tool-host.js";
import {
  SEARCH_TOOLS_NAME,
  type OfferReason,
  type ToolSearch,
  type ToolSelectionView,
} from "../tool-search/index.js";

/** What /tools says of one tool when the last request selected its tools: offered and why, or held back. */
export function offerColumn(view: ToolSelectionView, tool: AgentTool): string {
  const offered = view.offered.find((entry) => entry.tool.modelName === tool.modelName);
  if (offered) return `offered: ${reasonText(offered.reason, offered.score, offered.matched)}`;
  const held = view.heldBack.find((entry) => entry.tool.modelName === tool.modelName);
  if (!held) return "";
  return held.score > 0 ? `held back (score ${held.score.toFixed(2)})` : "held back (no match)";
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
  const offered = view.offered.filter((entry) => !isSearchTool(entry.tool)).length;
  return (
    `Tools are selected for each request (${view.why}): the last one offered ${offered} of ${view.total} and ${SEARCH_TOOLS_NAME}, which finds the rest. ` +
    "/tools pin <server>[/<tool>] offers one in every request."
  );
}

/** search_tools is listed only while requests select their tools. */
export function shownInList(search: ToolSearch | undefined, tool: AgentTool): boolean {
  return !search || !isSearchTool(tool) || search.lastSelection()?.on === true;
}

function isSearchTool(tool: { server: string; name: string }): boolean {
  return tool.server === BUILT_IN_SERVER && tool.name === SEARCH_TOOLS_NAME;
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
    return search.unpin(server, name)
      ? { ok: true, text: `${label} ${name === undefined ? "are" : "is"} no longer pinned.` }
      : { ok: false, text: `${target} was not pinned (pinned: ${search.pinned().join(", ") || "nothing"}).` };
  }
  const servers = [...new Set(tools.map((tool) => tool.server))];
  if (!servers.includes(server))
    return {
      ok: false,
      text: `There is no server named "${server}" with tools (servers: ${servers.join(", ") || "none"}).`,
    };
  if (name !== undefined && !tools.some((tool) => tool.server === server && tool.name === name))
    return { ok: false, text: `Server "${server}" has no tool named "${name}".` };
  search.pin(server, name);
  return {
    ok: true,
    text: `${label} ${name === undefined ? "are" : "is"} offered to the model in every request this session; /tools unpin ${target} undoes it.`,
  };
}
