import { existsSync } from "node:fs";
import { chmod, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir, writeJson } from "../support/fixtures.js";
import { startOAuthWorld, type OAuthWorld } from "../support/oauth-world.js";
import { TmuxTerminal } from "../support/tmux.js";

/**
 * The TUI signing in to a server behind OAuth, in a pseudo-terminal: the sign-in page is asked
 * about in the web-page panel while the person is typing, opens only on a deliberate yes, and a
 * wait for the browser is given up with Esc.
 */
let world: OAuthWorld;
let terminal: TmuxTerminal;
let dir: string;
let opened: string;
let hold: string;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function send(text: string): Promise<void> {
  terminal.text(text);
  await terminal.waitFor((screen) => screen.includes(`› ${text}`), `"${text}" in the prompt`);
  terminal.keys("Enter");
}

beforeAll(async () => {
  world = await startOAuthWorld();
  dir = await tempDir("mcpterm-tui-oauth-");
  opened = path.join(dir, "browser-opened");
  hold = path.join(dir, "hold-the-browser");
  // A browser that signs in at once (the authorization server redirects straight back), unless
  // told to hold, when it opens the page and leaves the person to it.
  const browser = path.join(dir, "browser.mjs");
  await writeFile(
    browser,
    [
      `#!${process.execPath}`,
      `import { appendFileSync, existsSync } from "node:fs";`,
      `const address = process.argv[2];`,
      `appendFileSync(${JSON.stringify(opened)}, address + "\\n");`,
      `if (!existsSync(${JSON.stringify(hold)})) {`,
      `  const page = await fetch(address, { redirect: "manual" });`,
      `  await fetch(page.headers.get("location"), { redirect: "manual" });`,
      `}`,
    ].join("\n"),
  );
  await chmod(browser, 0o755);
  await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { secure: { url: world.mcpUrl } } });
  const env = [
    `PATH=${process.env.PATH ?? ""}`,
    `HOME=${dir}`,
    `MCPTERM_SETTINGS_DIR=${path.join(dir, "settings")}`,
    `BROWSER=${browser}`,
    "NO_COLOR=1",
    "TERM=xterm-256color",
    "LANG=C.UTF-8",
  ];
  const command = `env -i ${env.map((entry) => `'${entry}'`).join(" ")} '${process.execPath}' '${CLI}' --trust-config --no-kb --model scripted --base-url http://127.0.0.1:9/v1; echo "EXITED $?"; sleep 60`;
  terminal = new TmuxTerminal(command, { cwd: dir, columns: 120, rows: 45 });
});

afterAll(async () => {
  terminal.close();
  await world.close();
});

describe("signing in to a server behind OAuth from the TUI", () => {
  it("asks in the web-page panel while the person types; their letters answer nothing; a later y signs in", async () => {
    // The person starts typing at once; the panel comes up in the middle of it.
    terminal.text("yes");
    const panel = await terminal.waitFor(
      (screen) => screen.includes('Sign in to "secure" (OAuth)'),
      "the sign-in panel",
    );
    expect(panel).toContain(`Domain:  ${new URL(world.issuer).host}`);
    terminal.text("y");
    await pause(300);
    expect(existsSync(opened)).toBe(false);
    // A pause, then a deliberate y: a second after the prompt is seen cleared, whatever the load,
    // so the guard counts from when the TUI took the Ctrl+U, not from when it was sent.
    await pause(1000);
    terminal.keys("C-u");
    await terminal.waitFor((screen) => /│ › +│/.test(screen), "the prompt cleared");
    await pause(1000);
    terminal.text("y");
    await terminal.waitFor((screen) => screen.includes("1/1 servers ready"), "the server, signed in");
    expect(existsSync(opened)).toBe(true);
    const screen = terminal.screen();
    for (const token of world.issued) expect(screen).not.toContain(token);
    expect(world.registrations).toBe(1);
  }, 60_000);

  it("/mcp logout forgets the sign-in; /mcp login asks again, and Esc gives up the wait for the browser", async () => {
    await send("/mcp logout secure");
    await terminal.waitFor((screen) => screen.includes('Signed out of "secure"'), "the sign-out");
    await writeFile(hold, "");
    await send("/mcp login secure");
    await terminal.waitFor(
      (screen) => screen.includes('Sign in to "secure" (OAuth)'),
      "the sign-in panel again",
    );
    await pause(1000);
    terminal.text("y");
    await terminal.waitFor((screen) => screen.includes("Esc gives up"), "the wait");
    terminal.keys("Escape");
    await terminal.waitFor((screen) => screen.includes('sign-in to "secure" was cancelled'), "the cancel");
    await rm(hold);
  }, 60_000);
});
