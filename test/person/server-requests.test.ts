import { describe, expect, it } from "vitest";
import type { SamplingParams } from "../../src/core/person/server-request-handlers.js";
import { serverRequestHandlers, type ServerRequestRecord } from "../../src/core/person/server-requests.js";
import { NoticeThrottle } from "../../src/core/person/notice-throttle.js";
import { NOBODY } from "../../src/core/person/person.js";

function handlers(records: ServerRequestRecord[], notices: string[]) {
  return serverRequestHandlers({
    person: () => NOBODY,
    allowSampling: false,
    model: () => ({
      model: "m",
      stream: () => ({
        [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true, value: undefined }) }),
      }),
    }),
    redact: (text) => text,
    record: (record) => records.push(record),
    openUrl: () => Promise.resolve(),
    notify: (text) => notices.push(text),
    perMinute: 2,
  });
}

const request = (maxTokens: number): SamplingParams => ({
  messages: [{ role: "user", content: { type: "text", text: "hi" } }],
  maxTokens,
  modelPreferences: { hints: Array.from({ length: 50 }, () => ({ name: "x".repeat(5000) })) },
});

describe("server requests", () => {
  it("refuses a token limit below 1 as invalid params, with the code once in the message", async () => {
    const error = await handlers([], [])
      .createMessage("s", request(0), new AbortController().signal)
      .catch((caught: unknown) => caught as Error & { code: number });
    expect(error).toMatchObject({
      code: -32602,
      message: "maxTokens must be a whole number of at least 1, not 0",
    });
  });

  it("bounds what the trace keeps of hints, and records a flood past the rate limit once", async () => {
    const records: ServerRequestRecord[] = [];
    const notices: string[] = [];
    const answer = handlers(records, notices);
    for (let index = 0; index < 20; index++)
      await answer.createMessage("s", request(5), new AbortController().signal).catch(() => undefined);
    const [first] = records;
    expect(first?.type === "sampling" && first.modelHints).toHaveLength(10);
    expect(first?.type === "sampling" && first.modelHints.every((hint) => hint.length === 100)).toBe(true);
    // Two within the limit (declined: nobody to ask), then one record for the 18 refused by it.
    expect(records.map((record) => record.by)).toEqual(["default", "default", "limit"]);
    expect(notices).toHaveLength(3);
  });
});

describe("NoticeThrottle", () => {
  it("lets five a window through per key, then says how many it held back", () => {
    let now = 0;
    const throttle = new NoticeThrottle(5, 10_000, () => now);
    const shown = Array.from({ length: 8 }, (_, index) => throttle.pass("a", `n${index}`));
    expect(shown.filter((text) => text !== undefined)).toEqual(["n0", "n1", "n2", "n3", "n4"]);
    expect(throttle.pass("b", "other")).toBe("other");
    now = 10_000;
    expect(throttle.pass("a", "later")).toBe("later (3 more like it were not shown)");
  });
});
