import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  StdioProcessTransport,
  type StdioProcessOptions,
} from "../../src/core/mcp/stdio-process-transport.js";
import { formatBytes } from "../../src/core/text/index.js";

/** A transport to `node -e <script> [...args]`, with nothing from this process's environment. */
function nodeScript(
  script: string,
  options: Partial<StdioProcessOptions> = {},
  args: string[] = [],
): StdioProcessTransport {
  return new StdioProcessTransport({
    command: process.execPath,
    args: ["-e", script, ...args],
    env: {},
    cwd: undefined,
    ...options,
  });
}

describe("StdioProcessTransport", () => {
  it("says a missing or wrong folder is the folder's fault, not the command's", async () => {
    // A spawn into a folder that is not there fails with ENOENT, as a command that is not there
    // does; one into a file fails with ENOTDIR, thrown rather than emitted.
    const dir = await mkdtemp(path.join(os.tmpdir(), "mcpterm-cwd-"));
    const file = path.join(dir, "a-file");
    await writeFile(file, "");
    try {
      await expect(nodeScript("", { cwd: path.join(dir, "srv") }).start()).rejects.toThrow(
        `its folder ${path.join(dir, "srv")} does not exist (its "cwd"); fix the folder, not the command`,
      );
      await expect(nodeScript("", { cwd: file }).start()).rejects.toThrow(
        `its folder ${file} is not a folder (its "cwd"); fix the folder, not the command`,
      );
      // A command that is not there, in a folder that is, is still the command's fault.
      await expect(
        new StdioProcessTransport({ command: "no-such-mcp-command", args: [], env: {}, cwd: dir }).start(),
      ).rejects.toThrow(
        `command "no-such-mcp-command" was not found (ENOENT) in ${dir}; check the command and PATH`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a message sent as the process exits is lost with the connection, never a bare EPIPE", async () => {
    // Answers one message and exits at once, as a server that ends after its first call; the
    // next message meets either a pipe still open (and is lost as the process ends) or a broken
    // one (EPIPE) a moment before the exit is seen. Either way the connection closes.
    const once =
      'process.stdin.once(\'data\', () => { process.stdout.write(\'{"jsonrpc":"2.0","id":1,"result":{}}\\n\', () => process.exit(0)); });';
    for (let round = 0; round < 8; round += 1) {
      const transport = nodeScript(once);
      const closed = new Promise<void>((resolve) => {
        transport.onclose = () => resolve();
      });
      const answered = new Promise<void>((resolve) => {
        transport.onmessage = () => resolve();
      });
      await transport.start();
      await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
      await answered;
      const second = transport.send({ jsonrpc: "2.0", id: 2, method: "ping" }).then(
        () => "sent",
        (error: unknown) => String(error),
      );
      await closed;
      expect(await second).toMatch(/^(sent|Error: Not connected)$/);
      expect(transport.exit).toMatchObject({ code: 0 });
    }
  });

  it("stops a server that sends one message longer than the limit, before it fills memory", async () => {
    // A message that never ends: 4,000 characters a piece, no newline, until stopped.
    const flood = "const a = 'x'.repeat(4000); setInterval(() => process.stdout.write(a), 1);";
    const transport = nodeScript(flood, { gracePeriodMs: 200, maxMessageChars: 100_000 });
    const errors: string[] = [];
    transport.onerror = (error) => errors.push(error.message);
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
    });
    await transport.start();
    await closed;
    expect(errors).toEqual([`the server sent one message of more than ${formatBytes(100_000)}`]);
    // mcpterm's reason, not a line of the server's stdout.
    expect(transport.cutOff).toBe(
      `the server sent one message of more than ${formatBytes(100_000)}; mcpterm stopped it`,
    );
    expect(transport.stdoutNoise.snapshot()).toEqual([]);
    expect(transport.exit).toBeDefined();
  });

  it("reads a long message that arrives in many pieces, and the lines around it", async () => {
    const script =
      "const big = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'y'.repeat(300000) } });" +
      "process.stdout.write('banner\\n' + big.slice(0, 1000)); setTimeout(() => process.stdout.write(big.slice(1000) + '\\n'), 20);";
    const transport = nodeScript(script);
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

  it("sends what several callers send at once in order, each a line of its own, each send settled", async () => {
    // Echoes each line it reads as a notification, in the order read.
    const echo =
      "let rest = ''; process.stdin.setEncoding('utf8'); process.stdin.on('data', (chunk) => {" +
      " const lines = (rest + chunk).split('\\n'); rest = lines.pop();" +
      " for (const line of lines) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'echo', params: { line } }) + '\\n'); });";
    const transport = nodeScript(echo);
    const lines: string[] = [];
    const all = new Promise<void>((resolve) => {
      transport.onmessage = (message) => {
        lines.push((message as unknown as { params: { line: string } }).params.line);
        if (lines.length === 24) resolve();
      };
    });
    await transport.start();
    try {
      // Eight callers, each sending from a continuation at a different depth, three times over.
      const caller = async (index: number): Promise<void> => {
        for (let round = 0; round < 3; round += 1) {
          for (let depth = 0; depth < index; depth += 1) await Promise.resolve();
          await transport.send({ jsonrpc: "2.0", method: "ping", id: round * 8 + index });
        }
      };
      await Promise.all(Array.from({ length: 8 }, (_, index) => caller(index)));
      await all;
      const ids = lines.map((line) => (JSON.parse(line) as { id: number }).id);
      expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, id) => id));
      // Each caller's own messages in the order it sent them.
      for (let index = 0; index < 8; index += 1)
        expect(ids.filter((id) => id % 8 === index)).toEqual([index, index + 8, index + 16]);
    } finally {
      await transport.close();
    }
  });

  it("writes what was sent a moment before close before it closes the server's stdin", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "mcpterm-stdin-"));
    const file = path.join(dir, "received");
    // Keeps what it reads and writes it out once stdin ends.
    const keep =
      "let all = ''; process.stdin.setEncoding('utf8'); process.stdin.on('data', (chunk) => { all += chunk; });" +
      " process.stdin.on('end', () => { require('node:fs').writeFileSync(process.argv[1], all); process.exit(0); });";
    const transport = nodeScript(keep, {}, [file]);
    try {
      await transport.start();
      const sent = transport.send({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 7 },
      });
      await transport.close();
      await sent;
      expect(await readFile(file, "utf8")).toBe(
        `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } })}\n`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("fails every send once the server has shut its stdin (EPIPE)", async () => {
    // Shuts its end of stdin and lives on: a write to that pipe fails with EPIPE.
    const transport = nodeScript("require('node:fs').closeSync(0); setTimeout(() => {}, 5000);", {
      gracePeriodMs: 200,
    });
    await transport.start();
    try {
      // Sent until the child has shut its end (it starts before it gets there).
      let failure: unknown;
      for (let attempt = 0; attempt < 200 && failure === undefined; attempt += 1) {
        const sends = [0, 1, 2].map((id) =>
          transport.send({ jsonrpc: "2.0", method: "ping", id: attempt * 3 + id }),
        );
        const settled = await Promise.allSettled(sends);
        const rejected = settled.filter((outcome) => outcome.status === "rejected");
        if (rejected.length > 0) {
          expect(rejected).toHaveLength(3);
          failure = (rejected[0] as PromiseRejectedResult).reason;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(failure).toBeInstanceOf(Error);
      expect(String(failure)).toContain("the server process closed its stdin and runs on");
      // Every send after fails at once, with the same sentence.
      await expect(transport.send({ jsonrpc: "2.0", method: "ping", id: 9999 })).rejects.toBe(failure);
    } finally {
      await transport.close();
    }
  });
});
