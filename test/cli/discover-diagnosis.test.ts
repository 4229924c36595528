import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/**
 * A server of 2026-07-28 only: it answers server/discover (after DISCOVER_DELAY_MS) with the
 * result in DISCOVER, and refuses initialize, as a server that never spoke 2025 does. With
 * INIT_VERSION it is a half-migrated one instead: it refuses server/discover and answers
 * initialize naming that version.
 */
const MODERN_ONLY = String.raw`
import { createInterface } from "node:readline";
const answer = (id, body) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, ...body }) + "\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === "initialize" && process.env.INIT_VERSION)
    answer(message.id, { result: { protocolVersion: process.env.INIT_VERSION, capabilities: {}, serverInfo: { name: "half", version: "1" } } });
  else if (message.method === "server/discover" && process.env.DISCOVER)
    setTimeout(() => answer(message.id, { result: JSON.parse(process.env.DISCOVER) }), Number(process.env.DISCOVER_DELAY_MS ?? 0));
  else answer(message.id, { error: { code: -32601, message: "Method not found: " + message.method } });
});
`;

async function project(discover: unknown, delayMs = 0, env: Record<string, string> = {}): Promise<string> {
  const dir = await tempDir();
  await writeFile(path.join(dir, "modern-only.mjs"), MODERN_ONLY);
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      m: {
        command: process.execPath,
        args: [path.join(dir, "modern-only.mjs")],
        env: {
          ...(discover === undefined ? {} : { DISCOVER: JSON.stringify(discover) }),
          DISCOVER_DELAY_MS: String(delayMs),
          ...env,
        },
        // The probe is waited for half of it: 1 s.
        startupTimeoutMs: 2000,
      },
    },
  });
  return dir;
}

const capabilities = { tools: {} };

describe("a 2026-07-28 server whose server/discover answer could not be used", () => {
  it.each([
    [{ supportedVersions: ["2026-07-28"] }, "has no capabilities object"],
    [{ supportedVersions: "2026-07-28", capabilities }, "has no supportedVersions list"],
    [{ supportedVersions: [], capabilities }, "lists no supportedVersions"],
    [
      { supportedVersions: ["2099-01-01"], capabilities },
      'lists "2099-01-01" in supportedVersions, not "2026-07-28"',
    ],
  ])("is told what was wrong with it, not only that initialize is unknown: %j", async (discover, problem) => {
    const run = await runCli(trustingConfig(["tools"]), { cwd: await project(discover), env: cleanEnv() });
    expect(run.code).toBe(4);
    expect(run.stdout).toContain(
      `its server/discover answer ${problem}, so it could not be spoken to in 2026-07-28`,
    );
  });

  it("is told the same over Streamable HTTP, after the legacy transport failed too", async () => {
    const http = createServer((request, response) => {
      if (request.method !== "POST") {
        response.writeHead(405).end();
        return;
      }
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        const message = JSON.parse(body) as { id?: number; method?: string };
        if (message.id === undefined) {
          response.writeHead(202).end();
          return;
        }
        const answer =
          message.method === "server/discover"
            ? { result: { supportedVersions: ["2099-01-01"], capabilities } }
            : { error: { code: -32601, message: `Method not found: ${message.method}` } };
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, ...answer }));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
      const run = await runCli(["tools", "--url", url], { cwd: await tempDir(), env: cleanEnv() });
      expect(run.code).toBe(4);
      expect(run.stdout).toContain(
        'its server/discover answer lists "2099-01-01" in supportedVersions, not "2026-07-28", so it could not be spoken to in 2026-07-28',
      );
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it("is told it answered after mcpterm stopped waiting, and how to pin the revision", async () => {
    const dir = await project({ supportedVersions: ["2026-07-28"], capabilities }, 1500);
    const run = await runCli(trustingConfig(["tools"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(4);
    expect(run.stdout).toMatch(
      /it did not answer server\/discover within \d+ ms and refused 2025-11-25's initialize: for a server of 2026-07-28 only that starts this slowly, set "protocol": "2026-07-28" in its config entry/,
    );
  });

  it("typed after --, is told the flag that pins the revision, not a config entry it has none of", async () => {
    const dir = await project(undefined);
    const script = path.join(dir, "modern-only.mjs");
    // A server typed after -- has its probe waited 5 s: this one answers it later.
    const discover = JSON.stringify({ supportedVersions: ["2026-07-28"], capabilities });
    const slow = await runCli(
      ["tools", "--", "env", `DISCOVER=${discover}`, "DISCOVER_DELAY_MS=5600", process.execPath, script],
      { cwd: dir, env: cleanEnv() },
    );
    expect(slow.code).toBe(4);
    expect(slow.stdout).toMatch(
      /for a server of 2026-07-28 only that starts this slowly, give --protocol 2026-07-28/,
    );
    expect(slow.stdout).not.toContain("config entry");
    // A 2025 revision pinned for it: initialize is all it is sent, and its refusal is explained.
    const pinned = await runCli(["tools", "--protocol", "2025-11-25", "--", process.execPath, script], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(pinned.code).toBe(4);
    expect(pinned.stdout).toContain(
      "it refused initialize (Method not found), as a server of 2026-07-28 only does: mcpterm spoke a 2025 revision because one was pinned (--protocol); leave the pin out, or pin 2026-07-28",
    );
  });

  it("names the version a half-migrated server's initialize answered, and where 2026-07-28 is settled", async () => {
    const dir = await project(undefined, 0, { INIT_VERSION: "2026-07-28" });
    const run = await runCli(trustingConfig(["tools"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(4);
    expect(run.stdout).toContain(
      'its initialize answer names protocol version "2026-07-28", which is no 2025 revision: 2026-07-28 is settled by server/discover, which a server of that revision answers',
    );
    expect(run.stdout).not.toContain("is not supported");
  });
});
