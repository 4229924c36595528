import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json.js";
import type { Tier } from "./tiers.js";

/** The parts of a tool that an "always allow" covers. */
export interface AllowableTool {
  server: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  tier: Tier;
}

export type AllowanceCheck =
  | { state: "allowed" }
  | { state: "not_allowed" }
  /** Allowed once, but the server has changed the tool since: ask again and say why. */
  | { state: "changed" };

/**
 * "Always allow this tool" for one session, remembered per server, tool and a hash of the tool's
 * definition (description, input schema and the tier they give it), so a server that changes a
 * tool, or makes it riskier, loses the allowance.
 */
export class ToolAllowances {
  private readonly allowed = new Map<string, string>();

  allow(tool: AllowableTool): void {
    this.allowed.set(keyOf(tool), definitionHash(tool));
  }

  check(tool: AllowableTool): AllowanceCheck {
    const hash = this.allowed.get(keyOf(tool));
    if (hash === undefined) return { state: "not_allowed" };
    return hash === definitionHash(tool) ? { state: "allowed" } : { state: "changed" };
  }

  /** Drops an allowance whose tool changed, so the change is reported once. */
  revoke(tool: AllowableTool): void {
    this.allowed.delete(keyOf(tool));
  }
}

function keyOf(tool: AllowableTool): string {
  return `${tool.server}\u0000${tool.name}`;
}

/** Hashes already taken, per tool object: a listed tool is not changed in place, only replaced. */
const hashes = new WeakMap<AllowableTool, string>();

/** Stable across key order, so a server re-sending the same schema keeps the allowance. */
export function definitionHash(tool: AllowableTool): string {
  const known = hashes.get(tool);
  if (known !== undefined) return known;
  const hash = createHash("sha256")
    .update(canonicalJson({ description: tool.description, inputSchema: tool.inputSchema, tier: tool.tier }))
    .digest("hex");
  hashes.set(tool, hash);
  return hash;
}
