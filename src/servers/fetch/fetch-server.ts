#!/usr/bin/env node
/**
 * mcpterm's bundled fetch MCP server (stdio). Bundled because the default config must work offline
 * after `npm ci`, and the published fetch servers refuse localhost, which our own tests serve from.
 * stdout carries the protocol only; diagnostics go to stderr.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createFetchServer } from "./create-fetch-server.js";

export async function main(): Promise<void> {
  const server = createFetchServer({ allowPrivate: process.env.MCPTERM_FETCH_ALLOW_PRIVATE === "1" });
  await server.connect(new StdioServerTransport());
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    // npm's bin links and symlinked checkouts make argv[1] differ from this module's own path.
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `mcpterm fetch server failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
