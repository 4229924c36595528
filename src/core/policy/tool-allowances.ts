import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json.js";
import { isRiskyTier, type Tier } from "./tiers.js";

/** The parts of a tool that an "always allow" covers. */
export interface AllowableTool {
  server: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  tier: Tier;
}

export type AllowanceCheck =
  /** `saved`: by a rule in the user's settings for this project, not an answer of this session. */
  | { state: "allowed"; saved: boolean }
  | { state: "not_allowed" }
  /** Allowed once, but the server has changed the tool since: ask again and say why. */
  | { state: "changed" };

/** How long an allowance lasts: this session, or saved for this project in the user's settings. */
export type AllowanceScope = "session" | "project";

/**
 * A saved rule: one tool by its definition hash, or (no `tool`) a whole server — which covers only
 * its read_only and low_risk tools: a dangerous or external tool is never allowed without being
 * named.
 */
export interface SavedAllowance {
  server: string;
  tool?: string;
  hash?: string;
  tier?: Tier;
  savedAt: string;
}

/** Where saved rules live: the user's settings, for one project (never the project's own files). */
export interface AllowanceStore {
  list(): SavedAllowance[];
  /** False when the rules could not be kept (settings mcpterm cannot read are never written over). */
  save(rules: SavedAllowance[]): boolean;
}

/** A rule as /permissions lists it. */
export interface AllowanceView {
  scope: AllowanceScope;
  server: string;
  /** Undefined: the server's safe tiers. */
  tool: string | undefined;
  tier: Tier | undefined;
}

/**
 * "Always allow", remembered per server, tool and a hash of the tool's definition (description,
 * input schema and the tier they give it), so a server that changes a tool, or makes it riskier,
 * loses the allowance — for this session, or saved for this project when a store is given.
 */
export class ToolAllowances {
  private readonly allowed = new Map<string, { hash: string; tier: Tier }>();

  constructor(private readonly store?: AllowanceStore) {}

  allow(tool: AllowableTool, scope: AllowanceScope = "session"): void {
    if (scope === "project" && this.store) {
      const rules = this.store
        .list()
        .filter((rule) => !(rule.server === tool.server && rule.tool === tool.name));
      // Not kept for the project: it holds for this session at least.
      if (this.store.save([...rules, { ...ruleFor(tool), savedAt: new Date().toISOString() }])) return;
    }
    this.allowed.set(keyOf(tool.server, tool.name), { hash: definitionHash(tool), tier: tool.tier });
  }

  /** A whole server's read_only and low_risk tools, saved for this project; false when it could not be kept. */
  allowServer(server: string): boolean {
    if (!this.store) return false;
    const rules = this.store.list().filter((rule) => !(rule.server === server && rule.tool === undefined));
    return this.store.save([...rules, { server, savedAt: new Date().toISOString() }]);
  }

  check(tool: AllowableTool): AllowanceCheck {
    const hash = definitionHash(tool);
    const session = this.allowed.get(keyOf(tool.server, tool.name));
    if (session) return session.hash === hash ? { state: "allowed", saved: false } : { state: "changed" };
    const rules = this.store?.list() ?? [];
    const named = rules.find((rule) => rule.server === tool.server && rule.tool === tool.name);
    if (named) return named.hash === hash ? { state: "allowed", saved: true } : { state: "changed" };
    const serverWide = rules.some((rule) => rule.server === tool.server && rule.tool === undefined);
    return serverWide && !isRiskyTier(tool.tier)
      ? { state: "allowed", saved: true }
      : { state: "not_allowed" };
  }

  /** Drops an allowance whose tool changed, here and in the settings, so the change is reported once. */
  revoke(tool: AllowableTool): void {
    this.allowed.delete(keyOf(tool.server, tool.name));
    this.forget((rule) => rule.server === tool.server && rule.tool === tool.name);
  }

  /** Every rule in force, this session's first. */
  list(): AllowanceView[] {
    return [
      ...[...this.allowed].map(([key, { tier }]): AllowanceView => {
        const [server = "", tool = ""] = key.split("\u0000");
        return { scope: "session", server, tool, tier };
      }),
      ...(this.store?.list() ?? []).map((rule): AllowanceView => ({
        scope: "project",
        server: rule.server,
        tool: rule.tool,
        tier: rule.tier,
      })),
    ];
  }

  /** Takes back one rule as list() shows it; false when there was none such. */
  remove(rule: AllowanceView): boolean {
    if (rule.scope === "session")
      return rule.tool !== undefined && this.allowed.delete(keyOf(rule.server, rule.tool));
    return this.forget((saved) => saved.server === rule.server && saved.tool === rule.tool);
  }

  private forget(matches: (rule: SavedAllowance) => boolean): boolean {
    if (!this.store) return false;
    const rules = this.store.list();
    const kept = rules.filter((rule) => !matches(rule));
    if (kept.length === rules.length) return false;
    this.store.save(kept);
    return true;
  }
}

function ruleFor(tool: AllowableTool): Omit<SavedAllowance, "savedAt"> {
  return { server: tool.server, tool: tool.name, hash: definitionHash(tool), tier: tool.tier };
}

function keyOf(server: string, name: string): string {
  return `${server}\u0000${name}`;
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
