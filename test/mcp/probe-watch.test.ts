import { afterEach, describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { discoverProblem, ProbeWatch } from "../../src/core/mcp/probe-watch.js";
import { serverConfig } from "../support/fixtures.js";
import { startHostileHttpServer } from "../support/hostile-http-server.js";

/** A watch on a clock the test moves, fed the wire of one attempt. */
function watched(wire: Array<[number, "out" | "in", JSONRPCMessage]>): ProbeWatch {
  let now = 0;
  const watch = new ProbeWatch(() => now);
  for (const [at, direction, message] of wire) {
    now = at;
    if (direction === "out") watch.sent(message);
    else watch.received(message);
  }
  return watch;
}

const discover: JSONRPCMessage = { jsonrpc: "2.0", id: 0, method: "server/discover" };
const initialize: JSONRPCMessage = { jsonrpc: "2.0", id: 1, method: "initialize" };
const refused: JSONRPCMessage = {
  jsonrpc: "2.0",
  id: 0,
  error: { code: -32601, message: "Method not found" },
};
const discovered: JSONRPCMessage = { jsonrpc: "2.0", id: 0, result: {} };

describe("ProbeWatch", () => {
  it("names a probe never answered before the fallback, with the time waited", () => {
    expect(
      watched([
        [0, "out", discover],
        [5000, "out", initialize],
      ]).outcome(),
    ).toEqual({
      kind: "unanswered",
      waitedMs: 5000,
    });
  });

  it("blames a refused initialize with no probe on a pin only where a 2025 revision was pinned", () => {
    const initializeRefused: JSONRPCMessage = { ...refused, id: 1 };
    const unprobed = watched([
      [0, "out", initialize],
      [10, "in", initializeRefused],
    ]);
    expect(unprobed.fallbackStory(false, true)).toMatch(
      /^it refused initialize \(Method not found\).*pinned/,
    );
    // An SSE entry, or a start again in 2025 after the process ended on the probe: no pin to leave out.
    expect(unprobed.fallbackStory(false, false)).toBeUndefined();
  });

  it("names a 2026 answer that came after the fallback", () => {
    const late = watched([
      [0, "out", discover],
      [5000, "out", initialize],
      [8000, "in", discovered],
    ]);
    expect(late.outcome()).toEqual({ kind: "late", waitedMs: 5000, answeredMs: 8000 });
  });

  it("says nothing of a refusal, in time or late (a slow 2025 server), or of a probe answered at once", () => {
    expect(
      watched([
        [0, "out", discover],
        [3, "in", refused],
        [4, "out", initialize],
      ]).outcome(),
    ).toBeUndefined();
    expect(
      watched([
        [0, "out", discover],
        [5000, "out", initialize],
        [6000, "in", refused],
      ]).outcome(),
    ).toBeUndefined();
    expect(
      watched([
        [0, "out", discover],
        [3, "in", discovered],
      ]).outcome(),
    ).toBeUndefined();
  });
});

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe("over HTTP", () => {
  it("a server that refuses the probe with an HTTP status is not told it left it unanswered", async () => {
    // A 2025 server with sessions answers a request without one with HTTP 400.
    const server = await startHostileHttpServer();
    closers.push(() => server.close());
    const manager = new McpManager([serverConfig("remote", { transport: "http", url: server.url })], {
      parentEnv: {},
    });
    closers.push(() => manager.close());
    await manager.start();
    expect(manager.servers()[0]).toMatchObject({ status: "connected", era: "legacy" });
    expect(manager.servers()[0]?.probe).toBeUndefined();
  });
});

describe("what is wrong with a server/discover answer", () => {
  it("quotes a few of the server's versions, each cut short", () => {
    const problem = discoverProblem({
      supportedVersions: Array.from({ length: 100 }, () => "9".repeat(10_000)),
    });
    expect(problem).toMatch(/ and 95 more in supportedVersions, not "2026-07-28"$/);
    expect(problem?.length).toBeLessThan(400);
  });
});
