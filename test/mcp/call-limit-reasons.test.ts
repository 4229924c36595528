import { afterEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import type { WireFrame } from "../../src/core/mcp/types.js";
import { fixtureLaunch, serverConfig } from "../support/fixtures.js";

const managers: McpManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
});

async function cancelReason(options: {
  timeoutMs: number;
  maxCallMs: number;
  ms: number;
  /** The error the call fails with must match this. */
  thrown?: RegExp;
}): Promise<unknown> {
  const frames: WireFrame[] = [];
  const { timeoutMs, maxCallMs, ms } = options;
  const manager = new McpManager(
    [serverConfig("fixture", { ...fixtureLaunch("call-limit-reasons"), timeoutMs, maxCallMs })],
    { parentEnv: process.env, onWire: (frame) => frames.push(frame) },
  );
  managers.push(manager);
  await manager.start();
  await expect(manager.callTool("fixture", "slow", { ms })).rejects.toThrow(options.thrown ?? /./);
  const cancel = frames.find(
    (frame) =>
      frame.direction === "send" &&
      (frame.message as { method?: string }).method === "notifications/cancelled",
  );
  return (cancel?.message as { params?: { reason?: unknown } } | undefined)?.params?.reason;
}

describe("the reason a stopped call's notifications/cancelled gives the server", () => {
  it("says which of the client's limits ran out, in words", async () => {
    // Progress comes every ms/4: 4,000 ms of it against 300 ms of patience is silence.
    expect(await cancelReason({ timeoutMs: 300, maxCallMs: 60_000, ms: 4000 })).toBe(
      "no answer or progress for 300 ms (the client's timeoutMs for this server)",
    );
  });

  it("blames silence, not the hard limit, when the two are equal and no progress came", async () => {
    // The first progress would come at 2,000 ms; both limits run out at 300 ms.
    expect(
      await cancelReason({
        timeoutMs: 300,
        maxCallMs: 300,
        ms: 8000,
        thrown: /did not answer within 300 ms/,
      }),
    ).toBe("no answer or progress for 300 ms (the client's timeoutMs for this server)");
  });
});
