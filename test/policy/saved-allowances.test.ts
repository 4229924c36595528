import { describe, expect, it } from "vitest";
import { UserSettings } from "../../src/core/config/user-settings.js";
import { ToolAllowances, type AllowableTool } from "../../src/core/policy/tool-allowances.js";
import { tempDir } from "../support/fixtures.js";

const write: AllowableTool = {
  server: "fs",
  name: "write_file",
  description: "Writes a file.",
  inputSchema: { type: "object" },
  tier: "dangerous",
};
const read: AllowableTool = { ...write, name: "read_file", description: "Reads a file.", tier: "read_only" };
const fetchPage: AllowableTool = {
  ...write,
  name: "fetch",
  description: "Fetches a page.",
  tier: "external",
};

async function settings(): Promise<UserSettings> {
  return new UserSettings(await tempDir("mcpterm-allowances-"), {});
}

describe("always allow, saved for a project in the user's settings", () => {
  it("lasts beyond the session that gave it, in that project only", async () => {
    const store = await settings();
    new ToolAllowances(store.allowanceStore("/p/one")).allow(write, "project");
    expect(new ToolAllowances(store.allowanceStore("/p/one")).check(write)).toEqual({
      state: "allowed",
      saved: true,
    });
    expect(new ToolAllowances(store.allowanceStore("/p/two")).check(write)).toEqual({ state: "not_allowed" });
  });

  it("lapses when the server changes the tool, and is gone once reported", async () => {
    const store = await settings();
    new ToolAllowances(store.allowanceStore("/p")).allow(write, "project");
    const later = new ToolAllowances(store.allowanceStore("/p"));
    const changed = { ...write, description: "Writes a file. Also uploads it." };
    expect(later.check(changed)).toEqual({ state: "changed", what: "definition" });
    later.revoke(changed);
    expect(later.check(write)).toEqual({ state: "not_allowed" });
  });

  it("a whole server's rule covers its read_only and low_risk tools, never a dangerous or external one", async () => {
    const allowances = new ToolAllowances((await settings()).allowanceStore("/p"));
    allowances.allowServer("fs");
    expect(allowances.check(read)).toEqual({ state: "allowed", saved: true });
    expect(allowances.check(write)).toEqual({ state: "not_allowed" });
    expect(allowances.check(fetchPage)).toEqual({ state: "not_allowed" });
  });

  it("lists this session's rules and the saved ones, and takes one back", async () => {
    const allowances = new ToolAllowances((await settings()).allowanceStore("/p"));
    allowances.allow(fetchPage, "session");
    allowances.allow(write, "project");
    allowances.allowServer("fs");
    const rules = allowances.list();
    expect(rules).toEqual([
      { scope: "session", server: "fs", tool: "fetch", tier: "external" },
      { scope: "project", server: "fs", tool: "write_file", tier: "dangerous" },
      { scope: "project", server: "fs", tool: undefined, tier: undefined },
    ]);
    const [sessionRule, savedRule] = rules;
    if (!sessionRule || !savedRule) throw new Error("the rules were not listed");
    expect(allowances.remove(savedRule)).toBe(true);
    expect(allowances.check(write)).toEqual({ state: "not_allowed" });
    expect(allowances.remove(sessionRule)).toBe(true);
    expect(allowances.check(fetchPage)).toEqual({ state: "not_allowed" });
  });

  it("keeps the settings file's other keys, and ignores a rule a hand edit broke", async () => {
    const store = await settings();
    store.trustConfig("/p/mcp.config.json", "abc");
    new ToolAllowances(store.allowanceStore("/p")).allow(write, "project");
    expect(store.isConfigTrusted("/p/mcp.config.json", "abc")).toBe(true);
    const { writeFileSync, readFileSync } = await import("node:fs");
    const data = JSON.parse(readFileSync(store.path, "utf8")) as { allowances: Record<string, unknown[]> };
    data.allowances["/p"]?.push({ server: "fs", tool: "delete_all" }, "nonsense");
    writeFileSync(store.path, JSON.stringify(data));
    expect(new ToolAllowances(store.allowanceStore("/p")).list()).toHaveLength(1);
  });

  it("holds for the program the server's entry ran when it was given, not another under its name", async () => {
    const store = await settings();
    let launch = "program-a";
    const launchOf = (server: string): string | undefined => (server === "fs" ? launch : undefined);
    const session = new ToolAllowances(store.allowanceStore("/p"), launchOf);
    session.allow(write, "project");
    session.allow(fetchPage, "session");
    session.allowServer("fs");
    expect(session.check(write)).toEqual({ state: "allowed", saved: true });
    expect(session.check(read)).toEqual({ state: "allowed", saved: true });
    // The config now runs another program as "fs" (trusted again, as after a pull), copying its tools.
    launch = "program-b";
    const later = new ToolAllowances(store.allowanceStore("/p"), launchOf);
    expect(later.check(write)).toEqual({ state: "changed", what: "server" });
    expect(later.check(read)).toEqual({ state: "changed", what: "server" });
    expect(session.check(fetchPage)).toEqual({ state: "changed", what: "server" });
    // Back to the program it was given for, it holds again.
    launch = "program-a";
    expect(later.check(write)).toEqual({ state: "allowed", saved: true });
    // Reported once: revoked, the rules for the other program are gone, the whole server's too.
    launch = "program-b";
    later.revoke(read);
    later.revoke(write);
    expect(later.check(read)).toEqual({ state: "not_allowed" });
    expect(later.check(write)).toEqual({ state: "not_allowed" });
  });

  it("gives a rule saved before rules held a launch the program seen first, and holds it to that", async () => {
    const store = await settings();
    // As an older mcpterm saved it: no launch.
    new ToolAllowances(store.allowanceStore("/p")).allow(write, "project");
    let launch = "program-a";
    const later = new ToolAllowances(store.allowanceStore("/p"), () => launch);
    expect(later.check(write)).toEqual({ state: "allowed", saved: true });
    expect(store.allowanceStore("/p").list()[0]?.launch).toBe("program-a");
    launch = "program-b";
    expect(new ToolAllowances(store.allowanceStore("/p"), () => launch).check(write)).toEqual({
      state: "changed",
      what: "server",
    });
  });
});
