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

  it("refuses a line that never ends past 16 MB instead of holding it all", async () => {
    async function* flood(): AsyncGenerator<string> {
      const block = "x".repeat(1024 * 1024);
      for (let index = 0; index < 20; index++) {
        await Promise.resolve();
        yield block;
      }
    }
    await expect(events(flood())).rejects.toThrow(SyntaxError);
  });
});
