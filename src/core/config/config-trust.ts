import { createHash } from "node:crypto";
import { hasControlOrHidden, revealControls } from "../policy/sanitize-terminal.js";
import { COMMAND_RISK_TEXT, commandLineRisks } from "./command-risks.js";
import { codeLoadingVariables } from "./env-risks.js";
import type { McptermConfig, ServerConfig } from "./config-types.js";
import { describeValues, handovers } from "./env-handover.js";
import { embeddingsOffMachine } from "./embeddings-settings.js";
import { clearTextSecrets } from "./plain-http.js";
import type { ServerOAuth } from "./server-oauth.js";

/** One server as a person is asked to trust it: its line, and what on it must not be missed. */
export interface TrustEntry {
  line: string;
  /** e.g. "pipes a download into a shell"; empty when nothing stands out. */
  warnings: string[];
}

/**
 * What a person agrees to when trusting a config, one line per server: the exact command line
 * of a stdio server with the environment it is given, or the URL of a remote one (with the
 * names, not values, of the headers it would send), plus any tier a config lowers and the roots
 * it asks for. `redact` masks the secrets in it (a `${VAR}` already expanded to your key), so
 * showing the line never shows them; the line says where one is handed over. Every control and
 * hidden character in it is written out (`⟨U+009B⟩`): removed where it is drawn, a control
 * would take the characters after it along (U+009B and a backquote read as one escape), and the
 * line a person said yes to would not be the line that runs.
 */
export function trustLine(server: ServerConfig, redact: (text: string) => string = (text) => text): string {
  return shown(rawTrustLine(server, redact));
}

/** trustLine before its control and hidden characters are written out. */
function rawTrustLine(server: ServerConfig, redact: (text: string) => string): string {
  const env = Object.entries(server.env).map(([name, value]) => `${name}=${quoteWord(value)}`);
  const target =
    server.transport === "stdio"
      ? [server.command ?? "", ...server.args].map(quoteWord).join(" ") +
        (server.cwd ? `  (in ${server.cwd})` : "") +
        (env.length > 0 ? `  (env ${env.join(" ")})` : "")
      : `${server.url ?? ""}${Object.keys(server.headers).length > 0 ? ` (sends headers ${Object.keys(server.headers).join(", ")})` : ""}`;
  const tiers = Object.entries(server.tiers).map(([tool, tier]) => `${tool}=${tier}`);
  const oauth = oauthSummary(server.oauth);
  const extras = [
    ...(oauth ? [oauth] : []),
    ...(tiers.length > 0 ? [`sets tiers ${tiers.join(", ")}`] : []),
    ...(server.trust ? ["trust: true (its annotations may lower tiers)"] : []),
    ...(server.roots === true ? ["roots: true (offered the working folder)"] : []),
  ];
  return redact(`${server.name}: ${target}${extras.length > 0 ? `; ${extras.join("; ")}` : ""}`);
}

/** Text of a config as the trust question shows it: nothing in it drawn as nothing, nothing removed. */
const shown = revealControls;

/**
 * How a remote entry signs in, when its `oauth` says more than the default: the grant, and every
 * place it names that credentials go to (issuer, identity provider, client metadata document).
 */
function oauthSummary(oauth: ServerOAuth | undefined): string | undefined {
  if (oauth === undefined) return undefined;
  if (!oauth.enabled) return "oauth off";
  const facts = [
    oauth.issuer === undefined ? undefined : `issuer ${oauth.issuer}`,
    oauth.clientId === undefined ? undefined : `client ${oauth.clientId}`,
    oauth.clientMetadataUrl === undefined ? undefined : `client metadata ${oauth.clientMetadataUrl}`,
    oauth.idpTokenEndpoint === undefined ? undefined : `identity provider ${oauth.idpTokenEndpoint}`,
    oauth.scopes === undefined ? undefined : `scopes ${oauth.scopes.join(" ")}`,
  ].filter((fact) => fact !== undefined);
  return `oauth ${oauth.grant}${facts.length > 0 ? ` (${facts.join(", ")})` : ""}`;
}

/**
 * What a person must not miss in what a server runs or sends: a command line that pipes a
 * download into a shell, runs as root or deletes recursively, environment variables that make it
 * load other code, a secret of yours handed to it (found by `redact` changing a value, or, for a
 * remote entry, any `${VAR}` of yours in its URL, headers or oauth, each with where it goes), or
 * (with allowInsecureHttp) secrets sent in clear text.
 */
export function trustWarnings(
  server: ServerConfig,
  redact: (text: string) => string = (text) => text,
): string[] {
  if (server.transport === "stdio") {
    const loading = codeLoadingVariables(server.env);
    const secrets = [
      ...Object.entries(server.env)
        .filter(([, value]) => redact(value) !== value)
        .map(([name]) => name),
      ...(server.args.some((arg) => redact(arg) !== arg) ? ["its arguments"] : []),
    ];
    return [
      ...commandLineRisks([server.command ?? "", ...server.args]).map((risk) => COMMAND_RISK_TEXT[risk]),
      ...(loading.length > 0 ? [`sets ${loading.join(", ")}, which can make it run other code`] : []),
      ...(secrets.length > 0 ? [`is handed a secret (${secrets.join(", ")})`] : []),
    ];
  }
  const url = server.url ?? "";
  const exposed = server.allowInsecureHttp
    ? clearTextSecrets({ url, rawUrl: url, headers: server.headers })
    : undefined;
  // Redacted: each names a host, which may be built from the very value it is handed.
  return [
    ...handovers(server).map(
      ({ destination, values }) =>
        `hands a secret from your environment to ${destination}: ${describeValues(values)}`,
    ),
    ...(exposed
      ? [`sends ${exposed.secrets} in clear text to ${exposed.host} over plain http (allowInsecureHttp)`]
      : []),
  ].map(redact);
}

export function trustEntry(
  server: ServerConfig,
  redact: (text: string) => string = (text) => text,
): TrustEntry {
  const raw = rawTrustLine(server, redact);
  // The fields too: a C0 control is already written out by the line's JSON quoting.
  const hidden = hasControlOrHidden(raw) || holdsControlOrHidden(server);
  const warnings = [...trustWarnings(server, redact), ...(hidden ? [HIDDEN_WARNING] : [])];
  return { line: shown(raw), warnings: warnings.map(shown) };
}

/** The mark of a line that held a control or a hidden character. */
const HIDDEN_WARNING = "holds control or invisible characters, written out as ⟨U+…⟩ where they stand";

/** Whether anything of the entry the trust line shows holds a control or a hidden character. */
function holdsControlOrHidden(server: ServerConfig): boolean {
  return [
    server.name,
    server.command ?? "",
    ...server.args,
    server.cwd ?? "",
    ...Object.entries(server.env).flat(),
    server.url ?? "",
    ...Object.keys(server.headers),
    ...Object.keys(server.tiers),
  ].some(hasControlOrHidden);
}

/**
 * The project's `model.baseUrl` when it is the endpoint in use and would receive what is the
 * user's: their API key, or (off this machine) every message, file and passage of the session.
 */
export interface KeyedEndpoint {
  url: string;
  /** Where the key comes from, e.g. "OPENAI_API_KEY"; undefined when no key goes there. */
  keySource: string | undefined;
}

/** What the endpoint would receive, for the trust question and the refusal. */
function receives(endpoint: KeyedEndpoint): string {
  return endpoint.keySource === undefined
    ? "your messages (it is off this machine)"
    : `your API key from ${endpoint.keySource}`;
}

/** The endpoint as a line of the trust question. */
export function endpointEntry(endpoint: KeyedEndpoint): TrustEntry {
  return {
    line: shown(`model endpoint: ${endpoint.url} (model.baseUrl) would receive ${receives(endpoint)}`),
    warnings: hasControlOrHidden(endpoint.url) ? [HIDDEN_WARNING] : [],
  };
}

/** The project's embeddings endpoint off this machine (embeddingsNeedingTrust), as a line of the question. */
export function embeddingsEntry(url: string): TrustEntry {
  return {
    line: shown(`embeddings endpoint: ${url} (kb.embeddings.baseUrl) would receive ${EMBEDDINGS_RECEIVE}`),
    warnings: hasControlOrHidden(url) ? [HIDDEN_WARNING] : [],
  };
}

const EMBEDDINGS_RECEIVE = "your messages and your notes (it is off this machine)";

/** "wants to start or connect to 2 servers and send your API key to the model endpoint it names". */
export function trustSummary(
  servers: number,
  endpoint: KeyedEndpoint | undefined,
  embeddings?: string,
): string {
  return `wants to ${[
    ...(servers > 0 ? [startOrConnect(servers)] : []),
    ...(endpoint
      ? [
          `send your ${endpoint.keySource === undefined ? "messages" : "API key"} to the model endpoint it names`,
        ]
      : []),
    ...(embeddings ? ["send your messages and notes to the embeddings endpoint it names"] : []),
  ].join(" and ")}`;
}

/**
 * The one-shot refusal, one sentence: every server line, each warning after it in brackets
 * (plain text, as it may land in a log), the endpoint that would get the key, and the flag that
 * allows it.
 */
export function untrustedConfigMessage(
  configPath: string,
  entries: readonly TrustEntry[],
  endpoint?: KeyedEndpoint,
  embeddings?: string,
): string {
  const lines = entries.map(({ line, warnings }) =>
    [line, ...warnings.map((text) => `[warning: ${text}]`)].join(" "),
  );
  const wants = [
    ...(entries.length > 0 ? [`${startOrConnect(entries.length)} (${lines.join("; ")})`] : []),
    ...(endpoint
      ? [
          endpoint.keySource === undefined
            ? `send your messages to ${shown(endpoint.url)} (off this machine), its model.baseUrl`
            : `send your API key (${endpoint.keySource}) to ${shown(endpoint.url)}, its model.baseUrl`,
        ]
      : []),
    ...(embeddings
      ? [`send your messages and notes to ${shown(embeddings)} (off this machine), its kb.embeddings.baseUrl`]
      : []),
  ];
  return `${shown(configPath)} would ${wants.join(" and ")}; check them and rerun with --trust-config to allow it.`;
}

function startOrConnect(servers: number): string {
  return `start or connect to ${servers} server${servers === 1 ? "" : "s"}`;
}

/**
 * Enabled servers: each either starts a program on this machine or connects to a URL with
 * headers that may carry secrets, so every one of them needs the person's trust.
 */
export function serversNeedingTrust(config: McptermConfig): ServerConfig[] {
  return config.servers.filter((server) => !server.disabled);
}

/**
 * A hash of everything a person trusted: what runs or is contacted (command, args, cwd, env,
 * URL, headers, oauth, the model and embeddings endpoints) and what the config decides about risk (tiers, trust,
 * allowInsecureHttp, roots: `true` widens a server started with folders to the working folder).
 * Change any of it and the trust lapses: a clone trusted without an `oauth` block that adds one
 * (a client secret from your environment, for an issuer it chose) is asked about again.
 */
export function launchHash(config: McptermConfig): string {
  const trusted = serversNeedingTrust(config).map((server) => [
    server.name,
    server.transport,
    server.command,
    server.args,
    server.cwd,
    server.env,
    server.url,
    server.headers,
    server.tiers,
    server.trust,
    // Only when set, so that configs trusted before these keys counted stay trusted.
    ...(server.allowInsecureHttp ? [server.allowInsecureHttp] : []),
    ...(server.oauth ? [{ oauth: server.oauth }] : []),
    ...(server.roots === undefined ? [] : [{ roots: server.roots }]),
  ]);
  // The endpoints join the hash only when the config sets them, so older trusts stay valid.
  const embeddingsBaseUrl = embeddingsOffMachine(config);
  const endpoints = {
    ...(config.model.baseUrl ? { modelBaseUrl: config.model.baseUrl } : {}),
    ...(embeddingsBaseUrl ? { embeddingsBaseUrl } : {}),
  };
  const subject = Object.keys(endpoints).length > 0 ? { servers: trusted, ...endpoints } : trusted;
  return createHash("sha256").update(JSON.stringify(subject)).digest("hex");
}

/**
 * A hash of the program one server entry runs or the endpoint it reaches: its transport, command,
 * arguments, folder and environment, or its URL, as its file writes them (`${VAR}` unexpanded:
 * a token the environment rotates is the same program). What an "always allow" is tied to
 * besides the tool's definition (ToolAllowances): a config changed to run another program under
 * the same server name (and trusted again, as a pulled change is) does not inherit what was
 * allowed of the one before, even when the new one copies its tools.
 */
export function serverLaunchHash(server: ServerConfig): string {
  const launch =
    server.launchAsWritten ??
    JSON.stringify([server.transport, server.command, server.args, server.cwd, server.env, server.url]);
  return createHash("sha256").update(launch).digest("hex");
}

/** A word as a shell would need it written: bare when it is plain, JSON-quoted otherwise. */
function quoteWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word);
}
