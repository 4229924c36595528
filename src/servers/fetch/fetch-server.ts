#!/usr/bin/env node
/**
 * mcpterm's bundled fetch MCP server (stdio). Bundled because the default config must work offline
 * after `npm ci`, and the published fetch servers refuse localhost, which our own tests serve from.
 * stdout carries the protocol only; diagnostics go to stderr.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createFetchServer } from "./create-fetch-server.js";

const server = createFetchServer({ allowPrivate: process.env.MCPTERM_FETCH_ALLOW_PRIVATE === "1" });
server.connect(new StdioServerTransport()).catch((error: unknown) => {
  process.stderr.write(
    `mcpterm fetch server failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
