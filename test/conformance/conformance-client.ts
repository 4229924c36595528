/**
 * mcpterm as the client of one MCP conformance scenario (`conformance client --command ...`):
 * the suite starts a scenario server and runs this with its URL as the last argument. It loads
 * that URL as a config entry would be, connects through mcpterm's own McpManager with the
 * session's real request handlers, makes the requests the scenario wants (scenario-calls.ts;
 * MCP_CONFORMANCE_SCENARIO names it), and closes.
 *
 * Exit code 0 when the connection worked and every request the scenario does not fail on purpose
 * got a result; the suite's own checks decide conformance.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseConfigDocument } from "../../src/core/config/config-schema.js";
import { ConfigError, errorMessage } from "../../src/core/errors.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { RootList } from "../../src/core/mcp/roots.js";
import { nobody, type Person } from "../../src/core/person/person.js";
import { serverRequestHandlers } from "../../src/core/person/server-requests.js";
import type { SignInPerson } from "../../src/core/oauth/server-auth.js";
import { OAuthStore } from "../../src/core/oauth/token-store.js";
import { plannedCalls, type ScenarioServer } from "./scenario-calls.js";

const SERVER = "conformance";

/**
 * The person at the keyboard, scripted: every form is accepted with nothing typed, so the
 * request handlers fill in the schema's defaults; pages are not opened and sampling is declined
 * (no client scenario outside OAuth asks for either).
 */
const person: Person = {
  ...nobody("the conformance adapter answers only forms"),
  absent: undefined,
  sampling: () => Promise.resolve({ approved: false, reason: "the conformance adapter has no model" }),
  elicitation: (question) =>
    Promise.resolve(question.mode === "form" ? { action: "accept", content: {} } : { action: "decline" }),
};

/** The person signing in: says yes to every sign-in page. */
const signer: SignInPerson = {
  confirm: () => Promise.resolve("open"),
  waiting: () => () => undefined,
};

/**
 * The browser, scripted: loads the authorization page (the suite's authorization server answers
 * at once with a redirect carrying the code) and follows that redirect to mcpterm's loopback
 * listener, as a browser would after the person signed in.
 */
async function scriptedBrowser(address: string): Promise<void> {
  const page = await fetch(address, { redirect: "manual" });
  const location = page.headers.get("location");
  if (!location) throw new Error(`the authorization page answered ${page.status} without a redirect`);
  await fetch(new URL(location, address), { redirect: "manual" });
}

/**
 * The server entry a person would write for this scenario: OAuth as discovered, with a client ID
 * metadata document where the authorization server takes one; the scenarios that hand out a
 * registered client (MCP_CONFORMANCE_CONTEXT) get it as `oauth` settings, its secrets through
 * `${VAR}` as a config file would.
 */
async function serverEntry(
  url: string,
  context: Record<string, string | undefined>,
  env: NodeJS.ProcessEnv,
): Promise<Record<string, unknown>> {
  if (context.client_secret !== undefined) env.CONFORMANCE_CLIENT_SECRET = context.client_secret;
  if (context.private_key_pem !== undefined) env.CONFORMANCE_PRIVATE_KEY = context.private_key_pem;
  switch (context.name ?? process.env.MCP_CONFORMANCE_SCENARIO ?? "") {
    case "auth/pre-registration":
      return { url, oauth: { clientId: context.client_id, clientSecret: "${CONFORMANCE_CLIENT_SECRET}" } };
    case "auth/client-credentials-basic":
      return {
        url,
        oauth: {
          grant: "client_credentials",
          issuer: await issuerOf(url),
          clientId: context.client_id,
          clientSecret: "${CONFORMANCE_CLIENT_SECRET}",
        },
      };
    case "auth/client-credentials-jwt":
      return {
        url,
        oauth: {
          grant: "client_credentials",
          issuer: await issuerOf(url),
          clientId: context.client_id,
          privateKey: "${CONFORMANCE_PRIVATE_KEY}",
          ...(context.signing_algorithm ? { signingAlgorithm: context.signing_algorithm } : {}),
        },
      };
    // The 2025 suite's name for the scenario the current line calls enterprise-managed-authorization.
    case "auth/cross-app-access-complete-flow":
    case "auth/enterprise-managed-authorization":
      env.CONFORMANCE_ID_TOKEN = context.idp_id_token;
      return {
        url,
        oauth: {
          grant: "enterprise",
          issuer: await issuerOf(url),
          clientId: context.client_id,
          clientSecret: "${CONFORMANCE_CLIENT_SECRET}",
          idpTokenEndpoint: context.idp_token_endpoint,
          idpClientId: context.idp_client_id,
          idToken: "${CONFORMANCE_ID_TOKEN}",
        },
      };
    case "auth/wif-jwt-bearer":
      env.CONFORMANCE_WIF_JWT = context.valid_jwt;
      return {
        url,
        oauth: {
          grant: "workload",
          issuer: await issuerOf(url),
          clientId: context.client_id,
          assertion: "${CONFORMANCE_WIF_JWT}",
        },
      };
    case "auth/dpop":
    case "auth/dpop-nonce":
      return {
        url,
        oauth: { clientMetadataUrl: "https://conformance-test.local/client-metadata.json", dpop: true },
      };
    default:
      return { url, oauth: { clientMetadataUrl: "https://conformance-test.local/client-metadata.json" } };
  }
}

/**
 * The issuer of the scenario's authorization server, which a person configuring a service
 * account knows (they registered it there); here it is read off the server's metadata.
 */
async function issuerOf(url: string): Promise<string> {
  const resource = new URL(url);
  const prm = (await (
    await fetch(new URL(`/.well-known/oauth-protected-resource${resource.pathname}`, resource))
  ).json()) as { authorization_servers: string[] };
  const server = new URL(prm.authorization_servers[0] ?? "");
  const metadata = (await (
    await fetch(
      new URL(`/.well-known/oauth-authorization-server${server.pathname.replace(/\/$/, "")}`, server),
    )
  ).json()) as { issuer: string };
  return metadata.issuer;
}

async function main(url: string): Promise<number> {
  const env = { ...process.env };
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Record<string, unknown>;
  const settingsContext = context as Record<string, string | undefined>;
  const config = parseConfigDocument(
    { mcpServers: { [SERVER]: await serverEntry(url, settingsContext, env) } },
    { fileLabel: "conformance", configDir: process.cwd(), env },
  );
  const settings = mkdtempSync(path.join(os.tmpdir(), "mcpterm-conformance-oauth-"));
  const manager = new McpManager(config.servers, {
    oauth: {
      store: new OAuthStore(settings),
      learnSecret: () => undefined,
      person: () => signer,
      openUrl: scriptedBrowser,
    },
    parentEnv: process.env,
    roots: new RootList([process.cwd()]),
    onLog: (entry) => console.error(`log ${entry.level}: ${entry.text}`),
    requests: serverRequestHandlers({
      person: () => person,
      allowSampling: false,
      model: () => {
        throw new ConfigError("the conformance adapter has no model");
      },
      redact: (text) => text,
      record: (record) => console.error(`request: ${JSON.stringify(record)}`),
      openUrl: () => Promise.reject(new Error("the conformance adapter opens no pages")),
      notify: (text) => console.error(text),
    }),
  });
  try {
    await manager.start();
    const server = manager.servers()[0];
    if (server?.status !== "connected") {
      console.error(`could not connect to ${url}: ${server?.error ?? "no server"}`);
      return 1;
    }
    const connection = manager.connection(SERVER);
    await connection?.catalogSettled();
    const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
    let failed = 0;
    for (const planned of plannedCalls(scenario, context, scenarioServer(manager))) {
      try {
        const result = await planned.run();
        console.log(`${planned.label} -> ${JSON.stringify(result)}`);
        if (isErrorResult(result) && !planned.mayFail) failed++;
      } catch (error) {
        console.error(`${planned.label} failed: ${errorMessage(error)}`);
        if (!planned.mayFail) failed++;
      }
    }
    return failed === 0 ? 0 : 1;
  } finally {
    await manager.close();
    rmSync(settings, { recursive: true, force: true });
  }
}

/** The connected server as the scenario plans see it. */
function scenarioServer(manager: McpManager): ScenarioServer {
  const snapshot = () => manager.servers().find((server) => server.name === SERVER);
  const connection = manager.connection(SERVER);
  if (!connection) throw new Error(`no server named ${SERVER}`);
  return {
    tools: () => manager.tools().map((tool) => tool.definition),
    resources: () => snapshot()?.catalog.resources ?? [],
    prompts: () => snapshot()?.catalog.prompts ?? [],
    callTool: (name, args) => manager.callTool(SERVER, name, args),
    readResource: (uri) => connection.readResource(uri),
    getPrompt: (name, args) => connection.getPrompt(name, args),
  };
}

function isErrorResult(result: unknown): boolean {
  return typeof result === "object" && result !== null && (result as { isError?: unknown }).isError === true;
}

const serverUrl = process.argv[2];
if (!serverUrl) {
  console.error("usage: conformance-client <server-url>");
  process.exitCode = 2;
} else {
  process.exitCode = await main(serverUrl);
}
