import { chmod, mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UserSettings } from "../../src/core/config/user-settings.js";
import { OAuthStore } from "../../src/core/oauth/token-store.js";
import { tempDir } from "../support/fixtures.js";

async function modeOf(folder: string): Promise<number> {
  return (await stat(folder)).mode & 0o777;
}

/** A settings folder made before mcpterm wrote there, readable by everyone (0755). */
async function openFolder(): Promise<string> {
  const folder = path.join(await tempDir("mcpterm-settings-folder-"), "mcpterm");
  await mkdir(folder);
  await chmod(folder, 0o755);
  return folder;
}

describe("the user's settings folder", () => {
  it("is tightened to 0700 when a trusted config is written into one that was 0755", async () => {
    const folder = await openFolder();
    new UserSettings(folder, {}).trustConfig("/p/mcp.config.json", "hash");
    expect(await modeOf(folder)).toBe(0o700);
  });

  it("is tightened to 0700 when a sign-in is stored in one that was 0755", async () => {
    const folder = await openFolder();
    new OAuthStore(folder).update("s", "https://mcp.example.com/mcp", (entry) => {
      entry.issuer = "https://as.example.com";
    });
    expect(await modeOf(folder)).toBe(0o700);
  });

  it("is made 0700 when it does not exist yet", async () => {
    const folder = path.join(await tempDir("mcpterm-settings-folder-"), "a", "mcpterm");
    new UserSettings(folder, {}).trustConfig("/p/mcp.config.json", "hash");
    expect(await modeOf(folder)).toBe(0o700);
  });
});
