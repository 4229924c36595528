import { lstatSync, statSync } from "node:fs";
import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * `auth status` and `auth logout` over a sign-in store mcpterm does not read (a link planted in
 * the settings folder, a file that is not JSON): they say why every server reads "not signed
 * in", never judge or advise chmod on a link's target, and leave the target as it was.
 */
let dir: string;
let settings: string;
let store: string;

beforeEach(async () => {
  dir = await tempDir("mcpterm-auth-store-");
  settings = path.join(dir, "settings");
  store = path.join(settings, "oauth.json");
  await mkdir(settings, { mode: 0o700 });
  await mkdir(path.join(dir, "project"));
  await writeJson(path.join(dir, "project", "mcp.config.json"), {
    mcpServers: { remote: { url: "https://mcp.example.com/mcp" } },
  });
});

const auth = (args: string[]): ReturnType<typeof runCli> =>
  runCli(["auth", ...args], {
    cwd: path.join(dir, "project"),
    env: cleanEnv({ MCPTERM_SETTINGS_DIR: settings }),
  });

describe("auth status and logout over a store mcpterm does not read", () => {
  it("a link to someone's file: status says it is not read, not that the target needs chmod", async () => {
    const target = path.join(dir, "elsewhere.json");
    await writeFile(target, JSON.stringify({ version: 2, signIns: [] }));
    await chmod(target, 0o644);
    await symlink(target, store);

    const text = await auth(["status"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`warning: ${store} is not a plain file (a link, or a folder)`);
    expect(text.stdout).not.toContain("chmod");
    expect(text.stdout).not.toContain("(none yet)");
    expect(text.stdout).toMatch(/remote .*not signed in/);

    const json = await auth(["status", "--json"]);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { store: string; problem?: string };
    expect(parsed.store).toBe(store);
    expect(parsed.problem).toContain("is not a plain file");

    const logout = await auth(["logout", "remote"]);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain('No sign-in is stored for "remote"');
    expect(logout.stdout).toContain("is not a plain file");
    // Nothing followed the link: the target keeps its mode, the link stays a link.
    expect(statSync(target).mode & 0o777).toBe(0o644);
    expect(lstatSync(store).isSymbolicLink()).toBe(true);
  });

  it("a store that is not JSON: status names the file and what to do, and the JSON says it too", async () => {
    await writeFile(store, "{ not json", { mode: 0o600 });
    const text = await auth(["status"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`warning: ${store} is not valid JSON; fix it or delete it`);
    const json = JSON.parse((await auth(["status", "--json"])).stdout) as { problem?: string };
    expect(json.problem).toContain("is not valid JSON");
  });

  it("a plain store says nothing of problems, and still warns of a mode others can read", async () => {
    await writeFile(store, JSON.stringify({ version: 2, signIns: [] }), { mode: 0o600 });
    await chmod(store, 0o644);
    const text = await auth(["status"]);
    expect(text.stdout).toContain("can be read by others (mode 644); run chmod 600 on it.");
    expect(text.stdout).not.toContain("is not a plain file");
    const json = JSON.parse((await auth(["status", "--json"])).stdout) as { problem?: string };
    expect(json).not.toHaveProperty("problem");
  });
});
