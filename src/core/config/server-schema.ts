import path from "node:path";
import type { ConfigFieldReader, JsonObject } from "./config-fields.js";
import { describeJsonValue, keyPath } from "./config-fields.js";
import { SERVER_KEYS } from "./config-keys.js";
import {
  DEFAULT_MAX_CALL_MS,
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  PROTOCOL_SETTINGS,
  type EnvironmentValue,
  type ServerConfig,
  type ServerTransport,
} from "./config-types.js";
import { expandEnv, type EnvExpansion } from "./expand-env.js";
import { MIN_SECRET_CHARS } from "../policy/secret-patterns.js";
import { isHttpUrl } from "./http-url.js";
import { clearTextSecrets } from "./plain-http.js";
import { unknownKeySentences } from "./unknown-keys.js";
import { moveUrlCredentials, urlAuthorityEnd, urlUserinfoSpan } from "./url-credentials.js";
import { parseServerOAuth } from "./server-oauth.js";

/** `type` values written by Claude Code, Cursor, VS Code and Cline for the same three transports. */
const SERVER_TYPES = ["stdio", "http", "sse", "streamable-http", "streamableHttp"] as const;

export interface ServerParseContext {
  reader: ConfigFieldReader;
  fileLabel: string;
  /** Folder of the config file: relative `cwd` values and the default `cwd` are taken from it. */
  configDir: string;
  env: NodeJS.ProcessEnv;
}

interface Unset {
  variable: string;
  path: string;
}

/**
 * Turns one `mcpServers` entry into a `ServerConfig`. Shape errors throw `ConfigError`; what
 * depends on the environment (unset variables, a URL built from them) becomes `problem`, so one
 * server with a missing token does not stop the others.
 */
export function parseServerConfig(name: string, value: unknown, context: ServerParseContext): ServerConfig {
  const { reader, env } = context;
  const here = keyPath("mcpServers", name);
  // The name is how calls, /mcp and the model's tool names reach the server: an empty one reaches none.
  if (name.trim() === "")
    reader.error(`${here} has an empty name; give the server a name (calls and /mcp use it: "name/tool").`);
  const raw = reader.object(value, here);
  for (const sentence of unknownKeySentences(raw, here, SERVER_KEYS)) reader.warn(sentence);
  const transport = pickTransport(raw, here, reader);

  const unset: Unset[] = [];
  const fromEnvironment: EnvironmentValue[] = [];
  const expansion = (text: string, at: string, encodedAt?: (offset: number) => boolean): EnvExpansion => {
    const expanded = expandEnv(text, env, encodedAt);
    for (const variable of expanded.missing) unset.push({ variable, path: at });
    for (const variable of expanded.used) fromEnvironment.push({ variable, key: at.slice(here.length + 1) });
    return expanded;
  };
  const expand = (text: string, at: string): string => expansion(text, at).value;
  const expandRecord = (record: Record<string, string> | undefined, at: string): Record<string, string> =>
    Object.fromEntries(
      Object.entries(record ?? {}).map(([key, text]) => [key, expand(text, keyPath(at, key))]),
    );

  const timeoutMs =
    reader.optionalMilliseconds(raw, "timeoutMs", here) ??
    reader.optionalMilliseconds(raw, "timeout", here) ??
    DEFAULT_TOOL_TIMEOUT_MS;
  const server: ServerConfig = {
    name,
    transport,
    args: (reader.optionalStringArray(raw, "args", here) ?? []).map((arg, index) =>
      expand(arg, `${keyPath(here, "args")}[${index}]`),
    ),
    env: expandRecord(reader.optionalStringRecord(raw, "env", here), keyPath(here, "env")),
    headers: expandRecord(reader.optionalStringRecord(raw, "headers", here), keyPath(here, "headers")),
    timeoutMs,
    // Never below the silence limit: a call may always use that much time at least.
    maxCallMs: Math.max(
      timeoutMs,
      reader.optionalMilliseconds(raw, "maxCallMs", here) ?? DEFAULT_MAX_CALL_MS,
    ),
    startupTimeoutMs:
      reader.optionalMilliseconds(raw, "startupTimeoutMs", here) ?? DEFAULT_STARTUP_TIMEOUT_MS,
    disabled: reader.optionalBoolean(raw, "disabled", here) ?? false,
    trust: reader.optionalBoolean(raw, "trust", here) ?? false,
    includeTools: reader.optionalStringArray(raw, "includeTools", here) ?? [],
    excludeTools: reader.optionalStringArray(raw, "excludeTools", here) ?? [],
    tiers: reader.optionalTierRecord(raw, "tiers", here) ?? {},
  };

  server.launchAsWritten = JSON.stringify([
    transport,
    raw.command ?? null,
    raw.args ?? [],
    raw.cwd ?? null,
    raw.env ?? {},
    raw.url ?? raw.httpUrl ?? null,
    // Where a relative command, cwd or args are read from.
    context.configDir,
  ]);

  const alwaysLoad = readAlwaysLoad(raw, here, reader);
  if (alwaysLoad !== undefined) server.alwaysLoad = alwaysLoad;

  const roots = reader.optionalBoolean(raw, "roots", here);
  if (roots !== undefined) server.roots = roots;

  if (raw.protocol != null)
    server.protocol = reader.oneOf(raw.protocol, PROTOCOL_SETTINGS, keyPath(here, "protocol"));

  const allowInsecureHttp = reader.optionalBoolean(raw, "allowInsecureHttp", here) ?? false;
  if (allowInsecureHttp) server.allowInsecureHttp = true;

  const cwd = reader.optionalString(raw, "cwd", here);
  let badUrl: string | undefined;
  let insecure: string | undefined;
  let twoCredentials: string | undefined;
  if (transport === "stdio") {
    const command = reader.optionalString(raw, "command", here) ?? "";
    server.command = expand(command, keyPath(here, "command"));
    server.cwd = path.resolve(context.configDir, cwd === undefined ? "." : expand(cwd, keyPath(here, "cwd")));
    refuseNul(server, here, reader);
  } else {
    const urlKey = chooseUrlKey(raw, transport);
    const urlPath = keyPath(here, urlKey);
    const rawUrl = reader.optionalString(raw, urlKey, here) ?? "";
    const userinfo = urlUserinfoSpan(rawUrl);
    const url = expansion(
      rawUrl,
      urlPath,
      userinfo && ((offset) => offset >= userinfo[0] && offset < userinfo[1]),
    );
    server.url = url.value;
    const secrets = urlSecrets(rawUrl, url, userinfo);
    if (secrets.length > 0) server.urlSecrets = secrets;
    const oauth = parseServerOAuth(raw, here, reader, expand);
    if (oauth !== undefined) server.oauth = oauth;
    // What it sends off this machine: its URL, headers and oauth (keys it does not read are not sent).
    const sent = fromEnvironment.filter(({ key }) => /^(url|httpUrl|headers|oauth)\b/.test(key));
    if (sent.length > 0) server.fromEnvironment = sent;
    if (unset.length === 0 && !isHttpUrl(server.url)) {
      // A literal typo is the file's fault; a bad value from the environment only fails this server.
      if (!rawUrl.includes("${")) reader.fail(urlPath, "an http(s) URL", JSON.stringify(server.url));
      badUrl = `${urlPath} in ${context.fileLabel} must be an http(s) URL, got ${JSON.stringify(server.url)}.`;
    }
    // Anyone on the network path reads plain http; a token in a header is as good as published.
    const exposed = clearTextSecrets({ url: server.url, rawUrl, headers: server.headers });
    if (exposed && !allowInsecureHttp) {
      insecure =
        `${here} would send ${exposed.secrets} in clear text to ${exposed.host} over plain http, where anyone on the network path can read them; ` +
        `use an https:// URL, or add "allowInsecureHttp": true to ${here} in ${context.fileLabel} if you trust that network.`;
    }
    const moved = moveUrlCredentials(server.url, server.headers);
    if ("problem" in moved)
      twoCredentials = `${urlPath} in ${context.fileLabel} holds a user name and password, and ${here} has ${moved.problem}; keep one of the two.`;
    else {
      ({ url: server.url, headers: server.headers } = moved);
      if (moved.authorizationFromUrl) server.authorizationFromUrl = true;
    }
  }

  const problem = describeUnset(unset, context.fileLabel) ?? badUrl ?? insecure ?? twoCredentials;
  if (problem !== undefined) server.problem = problem;
  return server;
}

/**
 * Values from the environment a URL carries as part of its requests (see urlAuthorityEnd): in
 * its user name or password, path, query or fragment, where tokens go, whatever the variable is
 * called. Those naming the host, and short ones (redacted everywhere, they would hide words), are not.
 */
function urlSecrets(rawUrl: string, url: EnvExpansion, userinfo: [number, number] | undefined): string[] {
  const authorityEnd = urlAuthorityEnd(rawUrl);
  if (authorityEnd === undefined) return [];
  const inRequest = (offset: number): boolean =>
    offset >= authorityEnd || (userinfo !== undefined && offset < userinfo[1]);
  return url.placed
    .filter(({ value, offset }) => inRequest(offset) && value.length >= MIN_SECRET_CHARS)
    .map(({ value }) => value);
}

/** `"alwaysLoad": true` (every tool of the server) or a list of its tool names; `false` is the same as leaving it out. */
function readAlwaysLoad(
  raw: JsonObject,
  here: string,
  reader: ConfigFieldReader,
): true | string[] | undefined {
  const value = raw.alwaysLoad;
  if (value == null || value === false) return undefined;
  if (value === true) return true;
  if (Array.isArray(value)) return reader.optionalStringArray(raw, "alwaysLoad", here);
  return reader.fail(
    keyPath(here, "alwaysLoad"),
    "true, false or an array of tool names",
    describeJsonValue(value),
  );
}

function pickTransport(raw: JsonObject, here: string, reader: ConfigFieldReader): ServerTransport {
  const hasCommand = reader.optionalString(raw, "command", here) !== undefined;
  const hasUrl = reader.optionalString(raw, "url", here) !== undefined;
  const hasHttpUrl = reader.optionalString(raw, "httpUrl", here) !== undefined;
  const hasAnyUrl = hasUrl || hasHttpUrl;

  if (raw.type != null) {
    const type = reader.oneOf(raw.type, SERVER_TYPES, keyPath(here, "type"));
    const transport: ServerTransport = type === "stdio" ? "stdio" : type === "sse" ? "sse" : "http";
    if (transport === "stdio" && !hasCommand) reader.error(`${here} has type "stdio" but no "command".`);
    if (transport !== "stdio" && !hasAnyUrl) reader.error(`${here} has type "${type}" but no "url".`);
    return transport;
  }
  if (hasCommand && hasAnyUrl) {
    reader.error(`${here} has both "command" and "url"; keep one, or add "type" to say which to use.`);
  }
  // gemini-cli writes `httpUrl` for Streamable HTTP; a bare `url` means HTTP for Claude and Cursor,
  // and the manager falls back to SSE at connect time for servers that only speak that.
  if (hasAnyUrl) return "http";
  if (hasCommand) return "stdio";
  return reader.error(`${here} needs "command" (to start a local server) or "url" (to reach a remote one).`);
}

function chooseUrlKey(raw: JsonObject, transport: ServerTransport): "url" | "httpUrl" {
  if (transport === "sse") return raw.url != null ? "url" : "httpUrl";
  return raw.httpUrl != null ? "httpUrl" : "url";
}

function describeUnset(unset: Unset[], fileLabel: string): string | undefined {
  const first = unset[0];
  if (first === undefined) return undefined;
  const names = [...new Set(unset.map((entry) => `\${${entry.variable}}`))];
  const verb = names.length === 1 ? "is" : "are";
  return (
    `${names.join(", ")} ${verb} not set (used in ${first.path} in ${fileLabel}); ` +
    `set ${names.length === 1 ? "it" : "them"} in the environment or give a default like \${${first.variable}:-value}.`
  );
}

/**
 * A NUL character ends a string where a program's arguments, its environment and paths are
 * handed over, so no process can be started with one: said as the config's mistake (exit 2),
 * naming the key, before anything tries.
 */
function refuseNul(server: ServerConfig, here: string, reader: ConfigFieldReader): void {
  const fields: Array<[string, string]> = [
    [keyPath(here, "command"), server.command ?? ""],
    ...server.args.map((arg, index): [string, string] => [`${keyPath(here, "args")}[${index}]`, arg]),
    [keyPath(here, "cwd"), server.cwd ?? ""],
    ...Object.entries(server.env).flatMap(([name, value]): Array<[string, string]> => [
      [keyPath(here, "env"), name],
      [keyPath(keyPath(here, "env"), name), value],
    ]),
  ];
  const found = fields.find(([, text]) => text.includes("\0"));
  if (found)
    reader.fail(
      found[0],
      "text without a NUL character (\\u0000), which no command line or path can hold",
      JSON.stringify(found[1]),
    );
}
