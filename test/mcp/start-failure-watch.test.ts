import { afterEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { startFailureSentence, watchStartFailures } from "../../src/core/mcp/start-failure-watch.js";
import { fixtureLaunch, serverConfig } from "../support/fixtures.js";

const managers: McpManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
});

function managerOf(...configs: Parameters<typeof serverConfig>[]): McpManager {
  const manager = new McpManager(
    configs.map(([name, overrides]) => serverConfig(name, overrides)),
    { parentEnv: process.env, shutdownGraceMs: 200 },
  );
  managers.push(manager);
  return manager;
}

const EXITS_AT_START = {
  command: process.execPath,
  args: ["-e", "console.error('boom: no config'); process.exit(2)"],
};

describe("watchStartFailures", () => {
  it("tells each server that never connected once, with why, and not the ones that did", async () => {
    const manager = managerOf(["good", fixtureLaunch("start-watch")], ["bad", EXITS_AT_START]);
    const told: Array<[string, string | undefined]> = [];
    const stop = watchStartFailures(manager, (server, reason) => told.push([server, reason]));
    await manager.start();
    expect(told).toEqual([["bad", expect.stringMatching(/exited \(code 2\).*boom: no config/)]]);
    // Started again and failing again, it is not told twice: the restart says how it went itself.
    await manager.restart("bad").catch(() => undefined);
    expect(told).toHaveLength(1);
    stop();
  });

  it("tells at once a server that had already failed when it began watching", async () => {
    const manager = managerOf(["bad", EXITS_AT_START]);
    await manager.start();
    const told: string[] = [];
    watchStartFailures(manager, (server) => told.push(server))();
    expect(told).toEqual(["bad"]);
  });

  it("says what the person reads", () => {
    expect(startFailureSentence("x", "it broke")).toBe(
      'server "x" could not be started: it broke — its tools are unavailable',
    );
    expect(startFailureSentence("x", undefined)).toBe(
      'server "x" could not be started — its tools are unavailable',
    );
  });
});
