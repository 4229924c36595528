import { describe, expect, it } from "vitest";
import { WireWatch } from "../../src/headless/doctor-wire.js";

/** The frames of one tools/call (id 1, progress token 5) answered with `result`, then progress 1. */
function progressAfter(result: Record<string, unknown>): WireWatch {
  const wire = new WireWatch();
  const frame = (direction: "send" | "receive", message: object): void =>
    wire.onFrame({ server: "s", direction, at: 0, message });
  frame("send", {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "report", arguments: {}, _meta: { progressToken: 5 } },
  });
  frame("receive", { jsonrpc: "2.0", id: 1, result });
  frame("receive", {
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: 5, progress: 1, total: 3 },
  });
  return wire;
}

describe("WireWatch's slips", () => {
  it("warns of progress after a call's answer, but not after an answer that is a task", () => {
    expect(progressAfter({ content: [] }).slips()).toMatchObject({
      errors: 0,
      warnings: 1,
      // What a script reading `doctor --json` filters on, beside the sentence.
      kept: [{ kind: "progress-after-answer", severity: "warning", token: 5, progress: 1 }],
    });
    // A task's progress goes on under the request's token until the task ends.
    const task = { taskId: "t1", status: "working", createdAt: "2026-12-05T10:00:00Z", ttl: null };
    expect(progressAfter({ task }).slips()).toEqual({ kept: [], errors: 0, warnings: 0 });
    expect(progressAfter({ resultType: "task", task }).slips()).toEqual({ kept: [], errors: 0, warnings: 0 });
  });

  it("names an answer's retyped id and a second answer with their method and ids", () => {
    const wire = new WireWatch();
    const frame = (direction: "send" | "receive", message: object): void =>
      wire.onFrame({ server: "s", direction, at: 0, message });
    frame("send", { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: {} } });
    frame("receive", { jsonrpc: "2.0", id: "7", result: { content: [] } });
    frame("send", { jsonrpc: "2.0", id: 8, method: "tools/list", params: {} });
    frame("receive", { jsonrpc: "2.0", id: 8, result: { tools: [] } });
    frame("receive", { jsonrpc: "2.0", id: 8, result: { tools: [] } });
    expect(wire.slips()).toMatchObject({
      errors: 2,
      warnings: 0,
      kept: [
        { kind: "id-retyped", severity: "error", method: "tools/call", id: 7, answeredId: "7" },
        { kind: "answered-twice", severity: "error", method: "tools/list", id: 8 },
      ],
    });
  });

  it("times the handshake from the first request of it: a probe waited out is part of connecting", () => {
    const wire = new WireWatch();
    const frame = (direction: "send" | "receive", at: number, message: object): void =>
      wire.onFrame({ server: "s", direction, at, message });
    // A 2025 server that never answers the probe: mcpterm waits it out, then speaks 2025.
    frame("send", 0, { jsonrpc: "2.0", id: 0, method: "server/discover", params: {} });
    frame("send", 5000, { jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    frame("receive", 5008, {
      jsonrpc: "2.0",
      id: 1,
      result: { protocolVersion: "2025-11-25", capabilities: {} },
    });
    expect(wire.initialize()?.ms).toBe(5008);
    // Its own time is still initialize's alone.
    expect(wire.timing("initialize")?.ms).toBe(8);
  });
});
