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
  /**
   * Allowed once, but since then the server changed the tool (`definition`) or its entry now runs
   * another program or reaches another URL (`server`): ask again and say which.
   */
  | { state: "changed"; what: "definition" | "server" };

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
  /** The server entry's serverLaunchHash when saved; a rule saved before it was kept takes the first seen. */
  launch?: string;
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
 * loses the allowance — for this session, or saved for this project when a store is given. Each
 * rule also holds what the server's entry runs (`launchOf`, see serverLaunchHash): under the
 * same name, another program or URL is asked about again.
 */
export class ToolAllowances {
  private readonly allowed = new Map<string, { hash: string; tier: Tier; launch: string | undefined }>();

  constructor(
    private readonly store?: AllowanceStore,
    /** The launch hash of a server's entry now; undefined for mcpterm's own tools (and without one). */
    private readonly launchOf: (server: string) => string | undefined = () => undefined,
  ) {}

  allow(tool: AllowableTool, scope: AllowanceScope = "session"): void {
    const launch = this.launchOf(tool.server);
    if (scope === "project" && this.store) {
      const rules = this.store
        .list()
        .filter((rule) => !(rule.server === tool.server && rule.tool === tool.name));
      const rule = { ...ruleFor(tool), ...launchPart(launch), savedAt: new Date().toISOString() };
      // Not kept for the project: it holds for this session at least.
      if (this.store.save([...rules, rule])) return;
    }
    this.allowed.set(keyOf(tool.server, tool.name), { hash: definitionHash(tool), tier: tool.tier, launch });
  }

  /** A whole server's read_only and low_risk tools, saved for this project; false when it could not be kept. */
  allowServer(server: string): boolean {
    if (!this.store) return false;
    const rules = this.store.list().filter((rule) => !(rule.server === server && rule.tool === undefined));
    const rule = { server, ...launchPart(this.launchOf(server)), savedAt: new Date().toISOString() };
    return this.store.save([...rules, rule]);
  }

  check(tool: AllowableTool): AllowanceCheck {
    const hash = definitionHash(tool);
    const launch = this.launchOf(tool.server);
    const session = this.allowed.get(keyOf(tool.server, tool.name));
    if (session) return verdict(session.launch === launch, session.hash === hash, false);
    const rules = this.store?.list() ?? [];
    const named = rules.find((rule) => rule.server === tool.server && rule.tool === tool.name);
    if (named) return verdict(this.sameLaunch(named, launch, rules), named.hash === hash, true);
    const serverWide = rules.find((rule) => rule.server === tool.server && rule.tool === undefined);
    if (!serverWide || isRiskyTier(tool.tier)) return { state: "not_allowed" };
    return this.sameLaunch(serverWide, launch, rules)
      ? { state: "allowed", saved: true }
      : { state: "changed", what: "server" };
  }

  /**
   * Whether a saved rule was given for what the server's entry runs now. A rule saved before
   * rules held it is given the launch seen now, once: it was allowed on that folder's config.
   */
  private sameLaunch(rule: SavedAllowance, launch: string | undefined, rules: SavedAllowance[]): boolean {
    if (rule.launch !== undefined || launch === undefined) return rule.launch === launch;
    rule.launch = launch;
    this.store?.save(rules);
    return true;
  }

  /**
   * Drops an allowance whose tool changed, here and in the settings, so the change is reported
   * once; and a whole server's rule given when its entry ran another program.
   */
  revoke(tool: AllowableTool): void {
    this.allowed.delete(keyOf(tool.server, tool.name));
    const launch = this.launchOf(tool.server);
    this.forget(
      (rule) =>
        rule.server === tool.server &&
        (rule.tool === tool.name || (rule.tool === undefined && rule.launch !== launch)),
    );
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

function launchPart(launch: string | undefined): { launch?: string } {
  return launch === undefined ? {} : { launch };
}

/** An allowance's check: its server's entry changed first (that says more), then the tool. */
function verdict(sameLaunch: boolean, sameDefinition: boolean, saved: boolean): AllowanceCheck {
  if (!sameLaunch) return { state: "changed", what: "server" };
  return sameDefinition ? { state: "allowed", saved } : { state: "changed", what: "definition" };
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
