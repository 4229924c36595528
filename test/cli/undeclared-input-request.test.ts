import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * A 2026 server (raw JSON-RPC over stdio) that answers tools/call with input_required asking for
 * roots/list, whether or not its client declared roots: mcpterm offers no roots to a server
 * whose command line names a folder (roots.ts), which this one is started with.
 */
const SERVER = String.raw`
import readline from "node:readline";
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const complete = { resultType: "complete", ttlMs: 0, cacheScope: "private" };
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  const ok = (result) => send({ jsonrpc: "2.0", id: m.id, result: { ...complete, ...result } });
  if (m.method === "server/discover") return ok({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} } });
  if (m.method === "tools/list") return ok({ tools: [{ name: "echo", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }] });
  if (m.method === "tools/call")
    return send({ jsonrpc: "2.0", id: m.id, result: { resultType: "input_required", requestState: "s1", inputRequests: { r1: { method: "roots/list", params: {} } } } });
  if (m.id !== undefined) ok({});
});
`;

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
  await writeFile(path.join(dir, "server.mjs"), SERVER);
  await mkdir(path.join(dir, "workspace"));
});

describe("a server asking for what mcpterm did not offer it", () => {
  it("is told as the server's fault, naming what it asked for, not in the SDK's words for a client's developer", async () => {
    const run = await runCli(
      ["call", "echo", "--json", "--", process.execPath, "server.mjs", "./workspace"],
      {
        cwd: dir,
        env: cleanEnv(),
      },
    );
    expect(run.code).toBe(1);
    const answer = JSON.parse(run.stdout) as { error: string; failure: string };
    expect(answer.failure).toBe("protocol");
    expect(answer.error).toContain(
      'asked for "roots/list" in an input_required answer, which mcpterm did not offer it',
    );
    expect(answer.error).not.toContain("register a handler");
  });
});
