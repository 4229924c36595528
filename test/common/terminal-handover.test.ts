import { describe, expect, it, vi } from "vitest";
import { terminalHandedOver, withTerminalHandedOver } from "../../src/common/terminal-handover.js";

/**
 * A Ctrl+C typed while an editor has the terminal reaches mcpterm as a SIGINT, which mcpterm may
 * read only after it has the terminal back: the count outlives the hand-over by signals in flight.
 */
describe("withTerminalHandedOver", () => {
  it("counts the terminal as away while the editor runs and until signals sent meanwhile are read", async () => {
    expect(terminalHandedOver()).toBe(false);
    const seenInside = await withTerminalHandedOver(() => Promise.resolve(terminalHandedOver()));
    expect(seenInside).toBe(true);
    // Back, but a SIGINT typed as the editor closed may still be on its way.
    expect(terminalHandedOver()).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(terminalHandedOver()).toBe(true);
    await vi.waitFor(() => expect(terminalHandedOver()).toBe(false), { timeout: 5_000, interval: 20 });
  });

  it("does the same when the hand-over fails, and passes the failure on", async () => {
    const failing = withTerminalHandedOver(() => Promise.reject(new Error("no terminal")));
    await expect(failing).rejects.toThrow("no terminal");
    expect(terminalHandedOver()).toBe(true);
    await vi.waitFor(() => expect(terminalHandedOver()).toBe(false), { timeout: 5_000, interval: 20 });
  });

  it("stays away while a second hand-over is still running", async () => {
    let finishSecond: () => void = () => undefined;
    const second = withTerminalHandedOver(() => new Promise<void>((resolve) => (finishSecond = resolve)));
    await withTerminalHandedOver(() => Promise.resolve());
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(terminalHandedOver()).toBe(true);
    finishSecond();
    await second;
    await vi.waitFor(() => expect(terminalHandedOver()).toBe(false), { timeout: 5_000, interval: 20 });
  });
});
