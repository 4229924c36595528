import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { ListenStream, type ListenEnd } from "../../src/core/mcp/listen-stream.js";
import { waitFor } from "../support/poll.js";

/**
 * A real 2026 server (the SDK's handler) behind a fetch that can cut the listen stream's response
 * short, as a proxy or a server restarting would: the stream ends without the listen result.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connected(): Promise<{ client: Client; dropListen: () => void; listens: () => number }> {
  const handler = createMcpHandler(
    () =>
      new McpServer(
        { name: "lists", version: "1" },
        {
          capabilities: { tools: { listChanged: true } },
        },
      ),
    { legacy: "reject" },
  );
  const open = new Set<ReadableStreamDefaultController<Uint8Array>>();
  let listens = 0;
  const fetchThrough = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await handler.fetch(new Request(url, init));
    const body = typeof init?.body === "string" ? init.body : "";
    if (!body.includes('"subscriptions/listen"') || !response.body) return response;
    listens += 1;
    const reader = response.body.getReader();
    const cut = new ReadableStream<Uint8Array>({
      start(controller) {
        open.add(controller);
        void (async () => {
          for (;;) {
            const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
            if (chunk.done || !open.has(controller)) return;
            controller.enqueue(chunk.value);
          }
        })();
      },
    });
    return new Response(cut, { status: response.status, headers: response.headers });
  };
  const client = new Client({ name: "test", version: "1" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://test.local/mcp"), { fetch: fetchThrough }),
  );
  cleanups.push(async () => {
    await client.close();
    await handler.close();
  });
  return {
    client,
    listens: () => listens,
    dropListen: () => {
      for (const controller of open) controller.close();
      open.clear();
    },
  };
}

describe("ListenStream", () => {
  it("listens again after a backoff when the server drops the stream, and not after mcpterm closes it", async () => {
    const { client, dropListen, listens } = await connected();
    const opened: unknown[] = [];
    const closed: Array<{ why: ListenEnd; relisten: boolean }> = [];
    const stream = new ListenStream(client, { toolsListChanged: true }, 5000, {
      opened: (honored) => opened.push(honored),
      closed: (why, relisten) => closed.push({ why, relisten }),
      failed: () => undefined,
    });
    expect(await stream.open()).toEqual({ toolsListChanged: true });
    dropListen();
    await waitFor(() => opened.length === 2, "the stream to be opened again");
    expect(closed).toEqual([{ why: "remote", relisten: true }]);
    expect(listens()).toBe(2);

    await stream.close();
    expect(closed.at(-1)).toEqual({ why: "local", relisten: false });
    expect(listens()).toBe(2);
  });
});
