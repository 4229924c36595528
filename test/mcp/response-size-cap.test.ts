import { describe, expect, it } from "vitest";
import {
  capResponseBodies,
  ERROR_PAGE_BYTES,
  OversizedMessageError,
} from "../../src/core/mcp/response-size-cap.js";

/** A fetch answering with `chunks` as they are, one read each, under the given status and type. */
function answering(chunks: string[], type: string, status = 200, headers: Record<string, string> = {}) {
  const encoder = new TextEncoder();
  let read = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[read];
      read += 1;
      if (chunk === undefined) controller.close();
      else controller.enqueue(encoder.encode(chunk));
    },
  });
  const fetch = capResponseBodies(
    () => Promise.resolve(new Response(body, { status, headers: { "content-type": type, ...headers } })),
    { limit: 100 },
  );
  return { fetch, chunksRead: () => read };
}

async function text(response: Response): Promise<string> {
  return new TextDecoder().decode(await response.arrayBuffer());
}

const event = (size: number): string => `data: ${"x".repeat(size - 8)}\n\n`;

describe("capResponseBodies (limit 100 bytes)", () => {
  it("passes an SSE stream of any length whose events each fit, blank lines split between chunks", async () => {
    const chunks = [
      ...Array.from({ length: 30 }, () => event(90)),
      "data: a\n",
      "\ndata: b\r\n",
      "\r\n",
      "data: c\n\r",
      "\n",
      `data: ${"y".repeat(80)}`,
      "\n\n",
    ];
    const { fetch } = answering(chunks, "text/event-stream");
    expect(await text(await fetch("http://x/mcp"))).toBe(chunks.join(""));
  });

  it.each([
    [
      "one event grown past it in many chunks",
      ["data: ", ...Array.from({ length: 20 }, () => "z".repeat(10))],
    ],
    ["an event past it after many that fit", [event(90), event(90), `data: ${"z".repeat(120)}\n\n`]],
    ["lines that never make a blank one", Array.from({ length: 20 }, () => "data: more\n")],
  ])("fails an SSE stream with %s, reading no further", async (_name, chunks) => {
    const { fetch, chunksRead } = answering(
      [...chunks, ...Array.from({ length: 100 }, () => "never read")],
      "text/event-stream",
    );
    const failure = await text(await fetch("http://x/mcp")).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(OversizedMessageError);
    expect(String(failure)).toContain("the server sent one message of more than 100 B");
    expect(chunksRead()).toBeLessThan(chunks.length + 2);
  });

  it("fails a JSON body past it, and one whose Content-Length says so before reading it", async () => {
    const long = answering(
      Array.from({ length: 20 }, () => '{"aaaaaa":1}'),
      "application/json",
    );
    await expect((await long.fetch("http://x/mcp")).json()).rejects.toThrow("more than 100 B");
    const declared = answering(['{"a":1}'], "application/json", 200, { "content-length": "5000" });
    await expect((await declared.fetch("http://x/mcp")).json()).rejects.toThrow("more than 100 B");
    // A stream fetches its first chunk as it is made; nothing past it is read.
    expect(declared.chunksRead()).toBeLessThanOrEqual(1);
    const fits = answering(['{"a":', "1}"], "application/json");
    expect(await (await fits.fetch("http://x/mcp")).json()).toEqual({ a: 1 });
  });

  it("keeps the first bytes of an error page, whatever the limit, and ends it there", async () => {
    const page = "<title>Down</title>" + "p".repeat(ERROR_PAGE_BYTES);
    const { fetch } = answering([page, "more", "and more"], "text/html", 503);
    const response = await fetch("http://x/mcp");
    expect(response.status).toBe(503);
    const kept = await response.text();
    expect(kept.length).toBe(ERROR_PAGE_BYTES);
    expect(kept.startsWith("<title>Down</title>")).toBe(true);
  });
});
