import { afterEach, describe, expect, it } from "vitest";
import { watchServerExits } from "../../src/core/mcp/exit-watch.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import type { ServerExitReport } from "../../src/core/mcp/server-exit.js";
import { fixtureLaunch, serverConfig } from "../support/fixtures.js";

const managers: McpManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
});

interface Told {
  server: string;
  report: ServerExitReport;
  wasConnected: boolean;
  restarting: boolean;
}

async function watched(marker: string): Promise<{ manager: McpManager; told: Told[] }> {
  const manager = new McpManager([serverConfig("fixture", fixtureLaunch(marker))], {
    parentEnv: process.env,
    shutdownGraceMs: 200,
  });
  managers.push(manager);
  const told: Told[] = [];
  watchServerExits(manager, (server, report, wasConnected, restarting) =>
    told.push({ server, report, wasConnected, restarting }),
  );
  await manager.start();
  return { manager, told };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("watchServerExits", () => {
  it("does not tell the exit of a process mcpterm stopped to restart it, as a person asked", async () => {
    const { manager, told } = await watched("exit-watch-restart");
    const before = manager.servers()[0]?.pid;
    await manager.restart("fixture");
    expect(manager.servers()[0]).toMatchObject({ status: "connected" });
    expect(manager.servers()[0]?.pid).not.toBe(before);
    expect(told).toEqual([]);
  });

  it("tells a process that ended of itself after it was connected, and that it is started again", async () => {
    const { manager, told } = await watched("exit-watch-crash");
    await manager.callTool("fixture", "crash", {}).catch(() => undefined);
    await until(() => told.length > 0, "the exit told");
    expect(told[0]).toMatchObject({
      server: "fixture",
      report: { code: 3 },
      wasConnected: true,
      restarting: true,
    });
    // A person's restart of the server started again is still not a crash.
    await until(() => manager.servers()[0]?.status === "connected", "the server back");
    await manager.restart("fixture");
    expect(told).toHaveLength(1);
  });
});
