/**
 * mcpterm as the client of one MCP conformance scenario (`conformance client --command ...`):
 * the suite starts a scenario server and runs this with its URL as the last argument. It loads
 * that URL as a config entry would be, connects through mcpterm's own McpManager with the
 * session's real request handlers, calls every tool the server offers, and closes.
 *
 * Exit code 0 when every call got a result; the suite's own checks decide conformance.
 */
import process from "node:process";
import { parseConfigDocument } from "../../src/core/config/config-schema.js";
import { ConfigError, errorMessage } from "../../src/core/errors.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { RootList } from "../../src/core/mcp/roots.js";
import { serverRequestHandlers, type PersonAtHand } from "../../src/core/requests/server-requests.js";
import { sampleArguments } from "./sample-arguments.js";

const SERVER = "conformance";

/**
 * The person at the keyboard, scripted: every form is accepted with nothing typed, so the
 * request handlers fill in the schema's defaults; pages are not opened and sampling is declined
 * (no client scenario outside OAuth asks for either).
 */
const person: PersonAtHand = {
  sampling: () => Promise.resolve({ approved: false, reason: "the conformance adapter has no model" }),
  elicitation: (question) =>
    Promise.resolve(question.mode === "form" ? { action: "accept", content: {} } : { action: "decline" }),
};

async function main(url: string): Promise<number> {
  const config = parseConfigDocument(
    { mcpServers: { [SERVER]: { url } } },
    { fileLabel: "conformance", configDir: process.cwd(), env: process.env },
  );
  const manager = new McpManager(config.servers, {
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
    let failed = 0;
    for (const { definition } of manager.tools()) {
      const args = sampleArguments(definition.inputSchema);
      try {
        const result = await manager.callTool(SERVER, definition.name, args);
        console.log(`${definition.name}(${JSON.stringify(args)}) -> ${JSON.stringify(result)}`);
        if (result.isError === true) failed++;
      } catch (error) {
        console.error(`${definition.name}(${JSON.stringify(args)}) failed: ${errorMessage(error)}`);
        failed++;
      }
    }
    return failed === 0 ? 0 : 1;
  } finally {
    await manager.close();
  }
}

const serverUrl = process.argv[2];
if (!serverUrl) {
  console.error("usage: conformance-client <server-url>");
  process.exitCode = 2;
} else {
  process.exitCode = await main(serverUrl);
}
