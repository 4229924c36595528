#!/usr/bin/env node
/**
 * mcpterm's bundled fetch MCP server (stdio). Bundled because the default config must work offline
 * after `npm ci`, and the published fetch servers refuse localhost, which our own tests serve from.
 * stdout carries the protocol only; diagnostics go to stderr. Speaks both revisions: a 2026-07-28
 * client's server/discover and a 2025 client's initialize each pin one instance for the connection.
 */
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createFetchServer } from "./create-fetch-server.js";

const allowPrivate = process.env.MCPTERM_FETCH_ALLOW_PRIVATE === "1";
serveStdio(() => createFetchServer({ allowPrivate }), {
  onerror: (error) => void process.stderr.write(`mcpterm fetch server: ${error.message}\n`),
});
