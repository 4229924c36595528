import { readdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OAuthStore } from "../../src/core/oauth/token-store.js";
import { tempDir } from "../support/fixtures.js";

const URL = "https://mcp.example.com/mcp";

describe("the sign-in store and links planted in the settings folder", () => {
  it("writes through a fresh file of its own, never a temp name someone prepared", async () => {
    const folder = await tempDir("mcpterm-store-");
    const victim = path.join(await tempDir("mcpterm-victim-"), "victim.txt");
    await writeFile(victim, "untouched\n");
    // Every name the old scheme (oauth.json.<pid>.tmp) could pick in this process.
    await symlink(victim, path.join(folder, `oauth.json.${process.pid}.tmp`));
    new OAuthStore(folder).update("s", URL, (entry) => {
      entry.discovery = { authorizationServerUrl: "https://as.example.com/" };
    });
    expect(await readFile(victim, "utf8")).toBe("untouched\n");
    expect(new OAuthStore(folder).get("s", URL)?.discovery?.authorizationServerUrl).toBe(
      "https://as.example.com/",
    );
    expect(
      (await readdir(folder)).filter(
        (name) => name.endsWith(".tmp") && !name.startsWith(`oauth.json.${process.pid}.tmp`),
      ),
    ).toEqual([]);
  });

  it("does not read sign-ins through an oauth.json that is a link, and says so", async () => {
    const folder = await tempDir("mcpterm-store-");
    const planted = path.join(await tempDir("mcpterm-planted-"), "planted.json");
    await writeFile(
      planted,
      JSON.stringify({ version: 2, signIns: [{ server: "s", url: URL, issuer: "https://evil.example" }] }),
    );
    await symlink(planted, path.join(folder, "oauth.json"));
    const store = new OAuthStore(folder);
    expect(store.get("s", URL)).toBeUndefined();
    expect(store.problem()).toMatch(
      /oauth\.json is not a plain file \(a link, or a folder\); mcpterm does not read sign-ins through it/,
    );
    expect(() => store.update("s", URL, () => undefined)).toThrow(/writes no sign-in over it/);
  });
});
