import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { chmod, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir, writeJson } from "../support/fixtures.js";
import { browse, signInAddress, startOAuthWorld, type OAuthWorld } from "../support/oauth-world.js";
import { cleanEnv, runCli, type CliRun, trustingConfig } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/**
 * The real binary signing in to a remote server behind OAuth (a resource server and its
 * authorization server on 127.0.0.1): `auth login` in a pipe, then `call`, `-p` and `auth status`
 * with the stored tokens, `auth logout`, and what one-shot mode says when nobody signed in.
 */
let world: OAuthWorld;
let model: ScriptedModelServer;
let dir: string;
let settings: string;
let browserMarker: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  world = await startOAuthWorld();
  model = await startScriptedModelServer((request) => {
    const messages = (request.body as { messages: Array<{ role: string }> }).messages;
    return messages.at(-1)?.role === "tool"
      ? { text: "The server knows you." }
      : { toolCalls: [{ name: "secure__whoami", arguments: "{}" }] };
  });
  dir = await tempDir("mcpterm-oauth-cli-");
  settings = await tempDir("mcpterm-oauth-settings-");
  browserMarker = path.join(dir, "browser-was-opened");
  // A browser that only leaves a mark: nothing here may open one without a yes.
  const browser = path.join(dir, "browser.sh");
  await writeFile(browser, `#!/bin/sh\necho "$@" > '${browserMarker}'\n`);
  await chmod(browser, 0o755);
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { secure: { url: world.mcpUrl }, local: { command: process.execPath, args: ["-e", "0"] } },
  });
  env = cleanEnv({ MCPTERM_SETTINGS_DIR: settings, BROWSER: browser });
});

afterAll(async () => {
  await model.close();
  await world.close();
});

const cli = (args: string[]): Promise<CliRun> => runCli(trustingConfig(args), { cwd: dir, env });
const prompt = (text: string): Promise<CliRun> =>
  cli(["-p", text, "--no-kb", "--model", "scripted", "--base-url", model.baseUrl, "--trust-config"]);

/** No token the authorization server issued appears in `text`. */
function expectNoToken(text: string): void {
  for (const token of world.issued) expect(text).not.toContain(token);
}

/** Runs `auth login` the way a person does it in a pipe: reads the address, signs in "in the browser". */
function login(server: string): Promise<CliRun & { browsed: number | undefined }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "auth", "login", server, "--trust-config"], {
      cwd: dir,
      env,
    });
    let stdout = "";
    let stderr = "";
    let browsed: Promise<number> | undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const address = signInAddress(stderr);
      if (address && !browsed && stderr.includes("waiting")) browsed = browse(address);
    });
    child.stdin.end();
    child.on("error", reject);
    child.on("close", (code, signal) => {
      void (browsed ?? Promise.resolve(undefined)).then((status) =>
        resolve({ code, signal, stdout, stderr, browsed: status }),
      );
    });
  });
}

describe("mcpterm auth and a server behind OAuth, through the real binary", () => {
  it("in one-shot mode before any sign-in: one sentence naming the command, and no browser", async () => {
    const run = await prompt("who am I?");
    expect(run.stderr).toContain(
      'server "secure" needs you to sign in (OAuth); run `mcpterm auth login secure`',
    );
    expect(existsSync(browserMarker)).toBe(false);
    const call = await cli(["call", "secure/whoami"]);
    expect(call.code).toBe(4);
    expect(call.stderr).toContain("mcpterm auth login secure");
    // Typed with --url, it has no config entry `auth login` could find: said so, with what works.
    const typed = await runCli(["call", "whoami", "--url", world.mcpUrl], { cwd: dir, env });
    expect(typed.code).toBe(4);
    expect(typed.stderr).toContain(
      "needs you to sign in (OAuth), which mcpterm does for servers of the config: name it in mcp.config.json and run `mcpterm auth login <name>`, or, if it takes a token, pass it with --header",
    );
    expect(typed.stderr).not.toMatch(/run `mcpterm auth login 127/);
  });

  it("auth login in a pipe shows the page and its domain, opens nothing, and signs in when the browser comes back", async () => {
    const run = await login("secure");
    expect(run.stderr).toContain(`Sign in to "secure" at ${new URL(world.issuer).host}:`);
    expect(run.browsed).toBe(200);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^Signed in to "secure": connected, 2 tools, scopes read, valid for (1 h 0 min|59 min \d+ s)\.\n$/,
    );
    expect(existsSync(browserMarker)).toBe(false);
    expectNoToken(run.stdout + run.stderr);
    const store = path.join(settings, "oauth.json");
    expect(statSync(store).mode & 0o777).toBe(0o600);
  });

  it("then call and -p use the stored sign-in, and no token reaches the output, the model or the trace", async () => {
    const call = await cli(["call", "secure/whoami"]);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain("you sent Bearer [REDACTED]");
    expectNoToken(call.stdout + call.stderr);

    const run = await prompt("who am I?");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("The server knows you.");
    expectNoToken(run.stdout + run.stderr);
    expectNoToken(JSON.stringify(model.requests.map((request) => request.body as unknown)));
    const traces = path.join(dir, ".mcpterm");
    const files = existsSync(traces) ? (await readdir(traces, { recursive: true })).map(String) : [];
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const full = path.join(traces, file);
      if (statSync(full).isFile()) expectNoToken(await readFile(full, "utf8"));
    }
  });

  it("doctor says which sign-in the server takes, that one is stored and valid, and that it was accepted", async () => {
    const run = await cli(["doctor", "secure", "--no-calls"]);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(
      /^ {2}✓ authorization +sign-in: browser; a stored sign-in, valid until \d{4}-\d\d-\d\dT[\d:.]+Z; accepted$/m,
    );
    expect(run.stdout).toMatch(/^ {2}✓ handshake +/m);
    expectNoToken(run.stdout + run.stderr);
  });

  it("auth status lists the server, its scopes and expiry, never a token", async () => {
    const run = await cli(["auth", "status"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Sign-ins are kept in ${path.join(settings, "oauth.json")}.`);
    expect(run.stdout).toMatch(
      /secure {2}\S+\/mcp {2}signed in · scopes read · expires in (1 h 0 min|59 min \d+ s) · refreshable/,
    );
    expect(run.stdout).not.toContain("local");
    expectNoToken(run.stdout);
    const json = await cli(["auth", "status", "--json"]);
    const parsed = JSON.parse(json.stdout) as {
      servers: Array<{ server: string; state: string; scopes: string[] }>;
    };
    expect(parsed.servers).toEqual([
      expect.objectContaining({ server: "secure", state: "signed in", scopes: ["read"] }),
    ]);
    expectNoToken(json.stdout);
  });

  it("auth logout forgets the sign-in: the next call names auth login again", async () => {
    const out = await cli(["auth", "logout", "secure"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('Signed out of "secure": its tokens and registered client are forgotten.\n');
    const stored = await readFile(path.join(settings, "oauth.json"), "utf8");
    expectNoToken(stored);
    const call = await cli(["call", "secure/whoami"]);
    expect(call.code).toBe(4);
    expect(call.stderr).toContain("mcpterm auth login secure");
    expect(existsSync(browserMarker)).toBe(false);
  });

  it("bad requests get one sentence and exit 2", async () => {
    const none = await cli(["auth", "login"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("auth login needs the server's name");
    const unknown = await cli(["auth", "login", "nosuch"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no server named "nosuch"');
    const local = await cli(["auth", "login", "local"]);
    expect(local.code).toBe(2);
    expect(local.stderr).toContain(
      '"local" is a local (stdio) server; only remote servers sign in with OAuth.',
    );
  });
});
