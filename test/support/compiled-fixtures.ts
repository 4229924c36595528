import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** Where the compiled fixture servers are; set by `compileFixtures` (vitest's global setup calls it). */
const FIXTURES_DIR_VARIABLE = "MCPTERM_TEST_FIXTURES_DIR";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures");
const SOURCES = {
  "fixture-server": path.join(FIXTURES, "fixture-server.ts"),
  "broken-server": path.join(FIXTURES, "broken-server.ts"),
  "hostile-server": path.join(FIXTURES, "hostile-server.ts"),
  "results-server": path.join(FIXTURES, "results-server.ts"),
  // Not a server: mcpterm's client for the MCP conformance suite's scenarios.
  "conformance-client": path.join(FIXTURES, "../conformance/conformance-client.ts"),
  "catalog-server": path.join(FIXTURES, "catalog-server.ts"),
  "modern-server": path.join(FIXTURES, "modern-server.ts"),
  "legacy-server": path.join(FIXTURES, "legacy-server.ts"),
  "restarting-server": path.join(FIXTURES, "restarting-server.ts"),
  "tool-catalog-server": path.join(FIXTURES, "tool-catalog-server.ts"),
  "author-server": path.join(FIXTURES, "author-server.ts"),
  "listen-server": path.join(FIXTURES, "listen-server.ts"),
  "deep-server": path.join(FIXTURES, "deep-server.ts"),
  // Not a server: records into a trace until it is killed.
  "trace-writer": path.join(FIXTURES, "trace-writer.ts"),
} as const;

export type FixtureName = keyof typeof SOURCES;

/**
 * Bundles each fixture server with its dependencies into one plain-node file in a fresh temp
 * folder, and points `compiledFixture` there. Through the tsx loader a fixture took seconds to
 * answer `initialize` on a loaded machine; one bundled file starts several times faster.
 */
export async function compileFixtures(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "mcpterm-fixtures-"));
  await build({
    entryPoints: SOURCES,
    outdir: dir,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    logLevel: "warning",
  });
  process.env[FIXTURES_DIR_VARIABLE] = dir;
  return dir;
}

/** The compiled file of one fixture server, to run with plain `node`. */
export function compiledFixture(name: FixtureName): string {
  const dir = process.env[FIXTURES_DIR_VARIABLE];
  if (!dir) {
    throw new Error(
      `${FIXTURES_DIR_VARIABLE} is not set: the fixture servers are compiled by vitest's global setup (test/global-setup.ts); outside vitest, call compileFixtures() first.`,
    );
  }
  return path.join(dir, `${name}.js`);
}
