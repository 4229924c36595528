import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { serveStdio, type StdioServerHandle } from "@modelcontextprotocol/server/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ProtocolSetting } from "../../src/core/config/config-types.js";
import { ServerConnection } from "../../src/core/mcp/server-connection.js";
import type { TransportKind } from "../../src/core/mcp/protocol-era.js";
import { serverConfig } from "../support/fixtures.js";
import { waitFor } from "../support/poll.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real SDK v2 server: one tool that logs as it runs, and list_changed for tools added later. */
function sdkServer(): McpServer {
  const server = new McpServer(
    { name: "in-memory", version: "3.1.4" },
    { capabilities: { tools: { listChanged: true }, logging: {} } },
  );
  server.registerTool(
    "add",
    { description: "Adds two numbers.", inputSchema: z.object({ a: z.number(), b: z.number() }) },
    async ({ a, b }, ctx) => {
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- mcpterm still keeps what servers log.
      await ctx.mcpReq.log("warning", `adding ${a} and ${b} with key s3cret`, "adder");
      return { content: [{ type: "text", text: String(a + b) }] };
    },
  );
  return server;
}

/**
 * A ServerConnection whose transports are the client halves of in-memory pairs, each with a new
 * SDK server on the other half (as the SDK's own tests run a client against a server), served
 * by the SDK's own entry that settles the era from the opening message: the connection runs over
 * them exactly as over a process or a socket.
 */
function inMemoryConnection(protocol: ProtocolSetting): {
  connection: ServerConnection;
  servers: McpServer[];
  kinds: TransportKind[];
} {
  const servers: McpServer[] = [];
  const handles: StdioServerHandle[] = [];
  const kinds: TransportKind[] = [];
  const connection = new ServerConnection(serverConfig("mem", { protocol }), {
    parentEnv: {},
    redact: (text) => text.replaceAll("s3cret", "[redacted]"),
    onChange: () => undefined,
    transports: (kind) => {
      kinds.push(kind);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const factory = (): McpServer => {
        const server = sdkServer();
        servers.push(server);
        return server;
      };
      handles.push(serveStdio(factory, { transport: serverSide }));
      return clientSide;
    },
  });
  cleanups.push(async () => {
    await connection.close();
    for (const handle of handles) await handle.close();
  });
  return { connection, servers, kinds };
}

describe("ServerConnection over an injected in-memory transport", () => {
  it("settles 2026-07-28 with server/discover, lists and calls the tool, keeps its log sent with the answer", async () => {
    const { connection, kinds } = inMemoryConnection("auto");
    await connection.connect();
    const snapshot = connection.snapshot();
    expect(snapshot.error).toBeUndefined();
    expect(snapshot.status).toBe("connected");
    expect(snapshot).toMatchObject({ era: "modern", protocolVersion: "2026-07-28" });
    expect(snapshot.serverInfo).toMatchObject({ name: "in-memory", version: "3.1.4" });
    expect(snapshot.tools.map((tool) => tool.definition.name)).toEqual(["add"]);
    expect(kinds).toEqual(["stdio"]);

    // A 2026 server has no logging/setLevel: the level goes in the call's _meta instead.
    await connection.setLogLevel("info");
    const result = await connection.callTool("add", { a: 2, b: 40 });
    expect(result.content).toEqual([{ type: "text", text: "42" }]);
    await waitFor(
      () => connection.logEntries().some((entry) => entry.logger === "adder"),
      "the tool's log message",
    );
    // Kept redacted, as everything the server says.
    expect(connection.logEntries().find((entry) => entry.logger === "adder")).toMatchObject({
      server: "mem",
      level: "warning",
      text: "adding 2 and 40 with key [redacted]",
    });
  });

  it("pinned to 2025-11-25: initialize; a tool added later is listed; a restart asks the factory again", async () => {
    const { connection, servers, kinds } = inMemoryConnection("2025-11-25");
    await connection.connect();
    expect(connection.snapshot()).toMatchObject({
      status: "connected",
      era: "legacy",
      protocolVersion: "2025-11-25",
    });

    servers[0]?.registerTool("later", { description: "Added after connecting." }, () => ({
      content: [{ type: "text", text: "late" }],
    }));
    await waitFor(
      () => connection.snapshot().tools.some((tool) => tool.definition.name === "later"),
      "the tool added after connecting",
    );
    expect(await connection.toolsSettled(1000)).toBe(true);

    await connection.restart();
    expect(kinds).toEqual(["stdio", "stdio"]);
    expect(connection.snapshot().status).toBe("connected");
    // The new server has only the tool it started with.
    expect(connection.snapshot().tools.map((tool) => tool.definition.name)).toEqual(["add"]);
    expect(connection.logMessages().some((line) => line.includes("mcpterm: reconnected"))).toBe(true);
  });
});
