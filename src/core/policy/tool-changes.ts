import { canonicalJson } from "./canonical-json.js";
import { definitionHash, type AllowableTool } from "./tool-allowances.js";

export type ToolChange =
  | { kind: "added"; tool: string }
  | { kind: "removed"; tool: string }
  /** Its definition hash changed: what an "always allow" is tied to. `parts` says how, in words. */
  | { kind: "changed"; tool: string; parts: string[] };

/**
 * What changed in one server's tools between two listings: tools added and removed, and tools
 * whose definition hash (the one the approval rules remember an "always allow" by: description,
 * input schema and tier) changed, with the parts that did. In the order of the new listing, the
 * removed ones last.
 */
export function toolChanges(before: readonly AllowableTool[], after: readonly AllowableTool[]): ToolChange[] {
  const old = new Map(before.map((tool) => [tool.name, tool]));
  const now = new Set(after.map((tool) => tool.name));
  const changes: ToolChange[] = [];
  for (const tool of after) {
    const was = old.get(tool.name);
    if (!was) changes.push({ kind: "added", tool: tool.name });
    else if (definitionHash(was) !== definitionHash(tool))
      changes.push({ kind: "changed", tool: tool.name, parts: changedParts(was, tool) });
  }
  for (const tool of before) if (!now.has(tool.name)) changes.push({ kind: "removed", tool: tool.name });
  return changes;
}

function changedParts(was: AllowableTool, now: AllowableTool): string[] {
  const parts: string[] = [];
  if (was.description !== now.description) parts.push("description changed");
  if (canonicalJson(was.inputSchema) !== canonicalJson(now.inputSchema)) parts.push("input schema changed");
  if (was.tier !== now.tier) parts.push(`tier ${was.tier} → ${now.tier}`);
  return parts;
}
