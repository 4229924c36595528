import type { AllowanceView, ToolAllowances } from "../policy/tool-allowances.js";
import type { CommandResult, SlashCommand } from "./command-types.js";

const USAGE = "Usage: /permissions, /permissions revoke <#>, /permissions allow <server>";

/**
 * `/permissions`: the "always allow" rules in force — this session's, and those saved for this
 * project in the user's settings — with a way to take one back, or to allow a whole server's
 * read_only and low_risk tools here. A dangerous or external tool is only ever allowed by name,
 * from its approval panel.
 */
export const permissionsCommand: SlashCommand = {
  name: "permissions",
  usage: "[revoke <#> | allow <server>]",
  description: "what you always allow, this session and saved for this project; revoke one",
  complete: (args, source) =>
    args.length === 0 ? ["revoke", "allow"] : args[0] === "allow" ? source.servers : [],
  run: (context, args) => {
    const allowances = context.allowances;
    if (!allowances) return Promise.resolve({ kind: "error", message: "No permissions are kept here." });
    const servers = context.manager.servers().map((server) => server.name);
    return Promise.resolve(permissionsResult(allowances, servers, args));
  },
};

function permissionsResult(
  allowances: ToolAllowances,
  servers: readonly string[],
  args: readonly string[],
): CommandResult {
  const [action, target, ...extra] = args;
  const rules = allowances.list();
  if (action === undefined) return listed(rules);
  if (target === undefined || extra.length > 0) return { kind: "error", message: USAGE };
  if (action === "revoke") {
    const rule = rules[Number(target) - 1];
    if (!/^\d+$/.test(target) || !rule)
      return { kind: "error", message: `There is no permission #${target}; /permissions lists them.` };
    allowances.remove(rule);
    return { kind: "text", text: `Revoked: ${describe(rule)}. It asks again from now on.` };
  }
  if (action === "allow") {
    if (!servers.includes(target))
      return {
        kind: "error",
        message: `There is no server named "${target}" (servers: ${servers.join(", ") || "none"}).`,
      };
    if (!allowances.allowServer(target))
      return {
        kind: "error",
        message: `Not saved: mcpterm could not keep it in your settings (a settings file it cannot read is never written over: see the warning at this session's start); fix the file, then try again.`,
      };
    return {
      kind: "text",
      text: `Saved for this project: the read_only and low_risk tools of ${target} run without asking. Its dangerous and external tools still ask.`,
    };
  }
  return { kind: "error", message: USAGE };
}

function listed(rules: readonly AllowanceView[]): CommandResult {
  if (rules.length === 0)
    return {
      kind: "text",
      text: 'Nothing is always allowed. An approval panel\'s "Always allow" adds a tool, this session or saved for this project.',
    };
  return {
    kind: "table",
    title: "Always allowed",
    columns: ["#", "where", "server", "tool", "tier"],
    rows: rules.map((rule, index) => [
      String(index + 1),
      rule.scope === "session" ? "this session" : "this project (saved)",
      rule.server,
      rule.tool ?? "its read_only and low_risk tools",
      rule.tier ?? "",
    ]),
    note: "/permissions revoke <#> takes one back · a tool whose server changes it is asked about again",
  };
}

function describe(rule: AllowanceView): string {
  const what = rule.tool === undefined ? `the safe tools of ${rule.server}` : `${rule.server}/${rule.tool}`;
  return `${what} (${rule.scope === "session" ? "this session" : "saved for this project"})`;
}
