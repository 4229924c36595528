import type { CliArgs } from "../args/index.js";
import type { CliIo } from "../common/cli-io.js";
import { askYesNo } from "../common/terminal-question.js";
import { loadProjectConfig } from "../common/load-project-config.js";
import type { ServerConfig } from "../core/config/index.js";
import { ExitCode } from "../core/errors.js";
import type { SignInPerson } from "../core/oauth/server-auth.js";
import { signInMode } from "../core/oauth/sign-in-mode.js";
import { credentialsInUse, expiresAt, type StoredSignIn } from "../core/oauth/issued-credentials.js";
import type { OAuthStore } from "../core/oauth/token-store.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { userOAuthStore } from "../core/session/session-oauth.js";
import { formatDuration } from "../core/text/units.js";
import { withOneServer } from "./with-one-server.js";

type AuthArgs = Extract<CliArgs, { command: "auth" }>;

/** How one server signs in, for `auth status`. */
type SignInState = "signed in" | "expired" | "not signed in" | "service account" | "off" | "own header";

interface StatusRow {
  server: string;
  url: string;
  state: SignInState;
  scopes: string[];
  expiresAt: number | undefined;
  refreshable: boolean;
  inConfig: boolean;
}

/** `mcpterm auth login|logout|status`: OAuth sign-ins, kept in the user's settings folder. */
export async function runAuthCommand(args: AuthArgs, io: CliIo): Promise<ExitCode> {
  const store = userOAuthStore(io.env);
  switch (args.action) {
    case "status":
      return status(args, io, store);
    case "logout":
      return logout(args.server ?? "", io, store);
    case "login":
      return login(args, io);
  }
}

async function login(args: AuthArgs, io: CliIo): Promise<ExitCode> {
  const name = args.server ?? "";
  return withOneServer(
    args.common,
    name,
    io,
    (_manager, connection) => {
      const snapshot = connection.snapshot();
      const stored = credentialsInUse(userOAuthStore(io.env).get(name, connection.config.url ?? ""));
      const scopes = stored?.tokens?.scope ? `, scopes ${stored.tokens.scope}` : "";
      const expiry = expiresAt(stored);
      const until = expiry === undefined ? "" : `, valid for ${formatDuration(expiry - Date.now())}`;
      io.stdout.write(
        `Signed in to "${name}": connected, ${snapshot.tools.length} tools${scopes}${until}.\n`,
      );
      return Promise.resolve(ExitCode.ok);
    },
    { signIn: terminalSignIn(io, args.browser), refuse: notSigningIn },
  );
}

/** The person at this terminal: shown the page, asked before a browser opens, told while it waits. */
function terminalSignIn(io: CliIo, offerBrowser: boolean): SignInPerson {
  return {
    confirm: async (question, signal) => {
      io.stderr.write(`Sign in to "${question.server}" at ${question.domain}:\n  ${question.url}\n`);
      if (!offerBrowser || !io.stdin.isTTY) return "show";
      return (await askYesNo(io, "Open it in your browser? [y/N] ", { signal })) ? "open" : "show";
    },
    waiting: (_question, opened) => {
      io.stderr.write(
        opened
          ? `Waiting for the browser to come back (Ctrl+C gives up)…\n`
          : `Open the address above in a browser and sign in; waiting for it to come back to 127.0.0.1 (Ctrl+C gives up)…\n`,
      );
      return () => undefined;
    },
  };
}

async function logout(name: string, io: CliIo, store: OAuthStore): Promise<ExitCode> {
  const forgotten = await store.forget(name);
  io.stdout.write(
    forgotten === 0
      ? `No sign-in is stored for "${sanitizeForTerminal(name)}".\n`
      : `Signed out of "${sanitizeForTerminal(name)}": its tokens and registered client are forgotten.\n`,
  );
  // Nothing found in a store mcpterm does not read is not "nothing stored".
  const problem = store.problem();
  if (forgotten === 0 && problem !== undefined) io.stdout.write(`warning: ${problem}.\n`);
  return ExitCode.ok;
}

async function status(args: AuthArgs, io: CliIo, store: OAuthStore): Promise<ExitCode> {
  const config = await loadProjectConfig(args.common, io);
  const stored = store.list();
  const remote = config.servers.filter((server) => server.transport !== "stdio" && server.url !== undefined);
  const rows: StatusRow[] = [
    ...remote.map((server) =>
      row(
        server.name,
        server.url ?? "",
        stateOf(server),
        stored.find((entry) => entry.server === server.name && entry.url === server.url),
        true,
      ),
    ),
    ...stored
      .filter((entry) => !remote.some((server) => server.name === entry.server && server.url === entry.url))
      .map((entry) => row(entry.server, entry.url, undefined, entry, false)),
  ];
  const mode = store.mode();
  // A store mcpterm does not read (a link, invalid JSON): every row above says "not signed in",
  // and this is why.
  const problem = store.problem();
  if (args.json) {
    const servers = rows.map((entry) => ({
      ...entry,
      expiresAt: entry.expiresAt === undefined ? null : new Date(entry.expiresAt).toISOString(),
    }));
    io.stdout.write(
      `${JSON.stringify({ store: store.path, ...(problem === undefined ? {} : { problem }), servers }, null, 2)}\n`,
    );
    return ExitCode.ok;
  }
  const none = mode === undefined && problem === undefined ? " (none yet)" : "";
  io.stdout.write(`Sign-ins are kept in ${store.path}${none}.\n`);
  if (problem !== undefined) io.stdout.write(`warning: ${problem}.\n`);
  else if (mode !== undefined && (mode & 0o077) !== 0)
    io.stdout.write(
      `warning: ${store.path} can be read by others (mode ${mode.toString(8)}); run chmod 600 on it.\n`,
    );
  if (rows.length === 0) io.stdout.write("No remote servers in the config, and no sign-ins stored.\n");
  for (const entry of rows) io.stdout.write(`${describeRow(entry)}\n`);
  return ExitCode.ok;
}

function row(
  server: string,
  url: string,
  configured: SignInState | undefined,
  entry: StoredSignIn | undefined,
  inConfig: boolean,
): StatusRow {
  const stored = credentialsInUse(entry);
  const expiry = expiresAt(stored);
  const tokens = stored?.tokens;
  const state: SignInState =
    configured ??
    (tokens === undefined
      ? "not signed in"
      : expiry !== undefined && expiry <= Date.now()
        ? "expired"
        : "signed in");
  return {
    server,
    url,
    state,
    scopes: tokens?.scope?.split(" ").filter((scope) => scope !== "") ?? [],
    expiresAt: expiry,
    refreshable: tokens?.refresh_token !== undefined,
    inConfig,
  };
}

/** What the entry decides before anything stored counts, or undefined when the store decides. */
function stateOf(server: ServerConfig): SignInState | undefined {
  const mode = signInMode(server);
  return mode === "off" || mode === "own header" || mode === "service account" ? mode : undefined;
}

function describeRow(entry: StatusRow): string {
  const name = sanitizeForTerminal(entry.server);
  const where = sanitizeForTerminal(entry.url);
  const parts: string[] = [entry.state];
  if (entry.scopes.length > 0) parts.push(`scopes ${sanitizeForTerminal(entry.scopes.join(" "))}`);
  if (entry.expiresAt !== undefined) {
    const left = entry.expiresAt - Date.now();
    parts.push(left > 0 ? `expires in ${formatDuration(left)}` : `expired ${formatDuration(-left)} ago`);
  }
  if (entry.refreshable) parts.push("refreshable");
  if (entry.state === "not signed in") parts.push(`mcpterm auth login ${name}`);
  if (entry.state === "service account") parts.push("signs in by itself; nothing stored");
  if (!entry.inConfig) parts.push("not in this config");
  return `  ${name}  ${where}  ${parts.join(" · ")}`;
}

/** Why `auth login` cannot sign in to this entry, or undefined when it can. */
function notSigningIn(server: ServerConfig): string | undefined {
  const name = server.name;
  switch (signInMode(server)) {
    case "local":
      return `"${name}" is a local (stdio) server; only remote servers sign in with OAuth.`;
    case "off":
      return `mcpServers.${name} says "oauth": false; remove it to let mcpterm sign in.`;
    case "own header":
      return `mcpServers.${name} sends its own Authorization header; remove it from "headers" to sign in with OAuth instead.`;
    case "service account":
      return `mcpServers.${name} signs in by itself (grant "${server.oauth?.grant ?? ""}"); there is nothing to log in to.`;
    case "browser":
      return undefined;
  }
}
