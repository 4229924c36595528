import type { ServerConfig } from "../config/config-types.js";
import type { ChatModel } from "../llm/types.js";
import type { McpManager, McpManagerOptions } from "../mcp/mcp-manager.js";
import { McpManagerCore } from "../mcp/mcp-manager-core.js";
import type { RootList } from "../mcp/roots.js";
import type { Person } from "../person/person.js";
import type { ServerRequestRecord } from "../person/server-requests.js";
import type { SecretRedactor } from "../policy/redact-secrets.js";

/** What a session's servers are wired to: its trace, notices, person and model. */
export interface SessionServersInput {
  env: NodeJS.ProcessEnv;
  redactor: SecretRedactor;
  roots: RootList;
  /** Who is asked now (sampling, elicitation, sign-ins). */
  person: () => Person;
  allowSampling: boolean;
  /** The model that answers servers' sampling requests (after /model, the new one). */
  model: () => ChatModel;
  record: (record: ServerRequestRecord) => void;
  /** A live warning about a server's request (declined, throttled). */
  notify: (text: string, server: string) => void;
  /** Everything else McpManager takes: the trace's wire tap, logs, stdout noise, request meta. */
  manager: Omit<McpManagerOptions, "parentEnv" | "redact" | "requests" | "roots" | "oauth">;
}

/**
 * The session's server manager. With servers, McpManager with sampling, elicitation and OAuth
 * wired to the session; those modules, the connection module and the MCP SDK under them are
 * loaded only then. Without servers (none configured, or the config not trusted), the manager's
 * core alone: it lists nothing and starts nothing, and `-p` reaches its model request without
 * loading the SDK, its schemas or zod (measured: about 80 ms of a 300 ms start on a loaded
 * 2-core machine).
 */
export async function sessionServers(
  servers: readonly ServerConfig[],
  input: SessionServersInput,
): Promise<McpManager> {
  if (servers.length === 0)
    return new McpManagerCore([], input.roots, () => {
      throw new Error("a manager without servers opens no connection");
    });
  const [{ McpManager }, { serverRequestHandlers }, { sessionOAuth }, { openUrlWith }] = await Promise.all([
    import("../mcp/mcp-manager.js"),
    import("../person/server-requests.js"),
    import("./session-oauth.js"),
    import("../person/open-url.js"),
  ]);
  const { env, redactor } = input;
  const requests = serverRequestHandlers({
    person: input.person,
    allowSampling: input.allowSampling,
    model: input.model,
    redact: redactor.redactText,
    record: input.record,
    openUrl: openUrlWith(env),
    notify: input.notify,
  });
  return new McpManager(servers, {
    ...input.manager,
    parentEnv: env,
    redact: redactor.redactText,
    requests,
    roots: input.roots,
    // Only a person at hand (the TUI) signs in; one-shot mode says which command does.
    oauth: sessionOAuth(env, redactor, () => input.person().signIn),
  });
}
