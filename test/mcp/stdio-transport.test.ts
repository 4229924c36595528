import { describe, expect, it } from "vitest";
import { StdioProcessTransport } from "../../src/core/mcp/stdio-process-transport.js";
import { formatBytes } from "../../src/core/text/index.js";

describe("StdioProcessTransport", () => {
  it("stops a server that sends one message longer than the limit, before it fills memory", async () => {
    // A message that never ends: 4,000 characters a piece, no newline, until stopped.
    const flood = "const a = 'x'.repeat(4000); setInterval(() => process.stdout.write(a), 1);";
    const transport = new StdioProcessTransport({
      command: process.execPath,
      args: ["-e", flood],
      env: {},
      cwd: undefined,
      gracePeriodMs: 200,
      maxMessageChars: 100_000,
    });
    const errors: string[] = [];
    transport.onerror = (error) => errors.push(error.message);
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
    });
    await transport.start();
    await closed;
    expect(errors).toEqual([`the server sent one message of more than ${formatBytes(100_000)}`]);
    expect(transport.stdoutNoise.snapshot()).toEqual([
      `[mcpterm] the server sent one message of more than ${formatBytes(100_000)}; mcpterm stopped it`,
    ]);
    expect(transport.exit).toBeDefined();
  });

  it("reads a long message that arrives in many pieces, and the lines around it", async () => {
    const script =
      "const big = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'y'.repeat(300000) } });" +
      "process.stdout.write('banner\\n' + big.slice(0, 1000)); setTimeout(() => process.stdout.write(big.slice(1000) + '\\n'), 20);";
    const transport = new StdioProcessTransport({
      command: process.execPath,
      args: ["-e", script],
      env: {},
      cwd: undefined,
    });
    const messages: unknown[] = [];
    const got = new Promise<void>((resolve) => {
      transport.onmessage = (message) => {
        messages.push(message);
        resolve();
      };
    });
    await transport.start();
    await got;
    await transport.close();
    expect(JSON.stringify(messages[0]).length).toBeGreaterThan(300_000);
    expect(transport.stdoutNoise.snapshot()).toEqual(["banner"]);
  });
});
