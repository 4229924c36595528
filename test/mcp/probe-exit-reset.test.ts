import { existsSync, writeFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { serverConfig, tempDir } from "../support/fixtures.js";

/** A 2025 server that dies on a method it does not know while `crash` exists, and answers -32601 after. */
const SCRIPT = String.raw`
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
const crash = process.argv[2];
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
createInterface({ input: process.stdin }).on("line", (text) => {
  const message = JSON.parse(text);
  if (message.id === undefined) return;
  if (message.method === "initialize")
    send({ id: message.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "p", version: "1" } } });
  else if (message.method === "tools/list") send({ id: message.id, result: { tools: [] } });
  else if (existsSync(crash)) throw new Error("unknown method " + message.method);
  else send({ id: message.id, error: { code: -32601, message: "Method not found" } });
});
`;

const managers: McpManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
});

describe("a server that died on the server/discover probe once", () => {
  it("is told so for that start only: started again after its fix, the probe is answered and nothing is told", async () => {
    const dir = await tempDir();
    const script = path.join(dir, "server.mjs");
    const crash = path.join(dir, "crash");
    await writeFile(script, SCRIPT);
    writeFileSync(crash, "");
    const manager = new McpManager(
      [serverConfig("p", { command: process.execPath, args: [script, crash] })],
      { parentEnv: process.env, shutdownGraceMs: 200 },
    );
    managers.push(manager);
    await manager.start();
    const probe = manager.connection("p")?.snapshot().probe;
    expect(probe?.kind).toBe("exited");
    expect(probe?.kind === "exited" ? probe.ended : "").toContain("Error: unknown method server/discover");
    await rm(crash);
    expect(existsSync(crash)).toBe(false);
    await manager.restart("p");
    expect(manager.servers()[0]?.status).toBe("connected");
    expect(manager.connection("p")?.snapshot().probe).toBeUndefined();
  });
});
