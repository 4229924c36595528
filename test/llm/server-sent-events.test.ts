import { describe, expect, it } from "vitest";
import { serverSentEvents, type ServerSentEvent } from "../../src/core/llm/server-sent-events.js";

async function* pieces(...texts: string[]): AsyncGenerator<string> {
  for (const text of texts) yield text;
  await Promise.resolve();
}

async function events(body: AsyncIterable<string>): Promise<ServerSentEvent[]> {
  const seen: ServerSentEvent[] = [];
  for await (const event of serverSentEvents(body)) seen.push(event);
  return seen;
}

/** `block` `times` times over, a turn of the event loop between pieces. */
async function* repeated(block: string, times: number): AsyncGenerator<string> {
  for (let index = 0; index < times; index++) {
    await Promise.resolve();
    yield block;
  }
}

/** The same body, cut into pieces of one code point each. */
const byChar = (text: string) => pieces(...Array.from(text));

describe("serverSentEvents", () => {
  const wire = 'data: {"a":1}\n\nevent: error\ndata: {"b":\ndata: 2}\n\n: a comment\nid: 7\ndata: [DONE]\n\n';
  const expected = [
    { event: undefined, data: '{"a":1}' },
    { event: "error", data: '{"b":\n2}' },
    { event: undefined, data: "[DONE]" },
  ];

  it("reads events, joining data lines and skipping comments and other fields", async () => {
    expect(await events(pieces(wire))).toEqual(expected);
  });

  it("reads the same events when the body comes a character at a time", async () => {
    expect(await events(byChar(wire))).toEqual(expected);
  });

  it("takes CRLF and lone CR line endings, a CRLF split across two pieces included", async () => {
    expect(await events(pieces("data: one\r", "\n\r", "\ndata: two\r\rdata: three\r\n\r\n"))).toEqual([
      { event: undefined, data: "one" },
      { event: undefined, data: "two" },
      { event: undefined, data: "three" },
    ]);
    expect(await events(byChar("data: x\r\n\r\ndata: y\r\r"))).toEqual([
      { event: undefined, data: "x" },
      { event: undefined, data: "y" },
    ]);
  });

  it("ends the last event at the end of the body when the server leaves out the blank line", async () => {
    expect(await events(pieces("data: last"))).toEqual([{ event: undefined, data: "last" }]);
    expect(await events(pieces("data: last\r"))).toEqual([{ event: undefined, data: "last" }]);
  });

  it("keeps a multi-byte character whole and takes a field with no space after the colon", async () => {
    expect(await events(pieces("data:é🙂\n", "\n"))).toEqual([{ event: undefined, data: "é🙂" }]);
  });

  it("skips a byte-order mark at the start of the stream only, an empty first piece before it", async () => {
    expect(await events(pieces("\uFEFFdata: first\n\n"))).toEqual([{ event: undefined, data: "first" }]);
    expect(await events(pieces("", "\uFEFFdata: first\n\n"))).toEqual([{ event: undefined, data: "first" }]);
    // Later, it is part of the field's name, which is then no field at all.
    expect(await events(pieces("data: a\n\n", "\uFEFFdata: b\n\n"))).toEqual([
      { event: undefined, data: "a" },
    ]);
  });

  it("keeps a CRLF whole across an empty piece between its halves", async () => {
    expect(await events(pieces("data: a\r", "", "\ndata: b\n\n"))).toEqual([
      { event: undefined, data: "a\nb" },
    ]);
  });

  it("counts empty data lines toward the 16 MB cap of an event", async () => {
    await expect(events(repeated("data:\n".repeat(1024 * 1024), 20))).rejects.toThrow(SyntaxError);
    // 20 million lines: 14 s alone at load 9 on two cores, past 30 s beside the rest of the suite.
  }, 120_000);

  it("hands over an event ended by CR CR without waiting for the next piece", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    async function* slow(): AsyncGenerator<string> {
      yield "data: now\r\r";
      await held;
      yield "\ndata: later\n\n";
    }
    const reader = serverSentEvents(slow());
    expect((await reader.next()).value).toEqual({ event: undefined, data: "now" });
    release();
    expect((await reader.next()).value).toEqual({ event: undefined, data: "later" });
    expect((await reader.next()).done).toBe(true);
  });

  it("reads a 2 MB line that comes in 4,000 pieces whole", async () => {
    const line = `data: ${"y".repeat(2_000_000)}\n\n`;
    async function* small(): AsyncGenerator<string> {
      for (let at = 0; at < line.length; at += 500) {
        await Promise.resolve();
        yield line.slice(at, at + 500);
      }
    }
    const [event] = await events(small());
    expect(event?.data.length).toBe(2_000_000);
  });

  it("refuses an event of many data lines past 16 MB", async () => {
    await expect(events(repeated(`data: ${"z".repeat(1024 * 1024)}\n`, 20))).rejects.toThrow(SyntaxError);
  });

  it("refuses a line that never ends past 16 MB instead of holding it all", async () => {
    await expect(events(repeated("x".repeat(1024 * 1024), 20))).rejects.toThrow(SyntaxError);
  });
});
