import { describe, expect, it } from "vitest";
import { wrapWords } from "../../src/core/text/index.js";
import { streamingTail } from "../../src/ui/transcript/streaming-tail.js";

const WORDS = Array.from({ length: 400 }, (_, index) => `w${index % 13}${"x".repeat(index % 7)}`);

describe("streamingTail", () => {
  it("leaves text that fits to be drawn whole", () => {
    expect(streamingTail("A short answer.", 80, 10)).toBeUndefined();
    expect(streamingTail(WORDS.slice(0, 30).join(" "), 80, 10)).toBeUndefined();
  });

  it("keeps the last rows of a paragraph taller than the room, counting those above", () => {
    const text = WORDS.join(" ");
    const tail = streamingTail(text, 40, 10);
    const all = wrapWords(text, 38);
    expect(tail).toEqual({ rows: all.slice(-9), hidden: all.length - 9 });
  });

  it("wraps a growing paragraph token by token exactly as it would wrap whole", () => {
    let text = "";
    for (const word of WORDS) {
      // Tokens end mid-word and with spaces, as models send them.
      for (const token of [word.slice(0, 2), `${word.slice(2)} `]) {
        text += token;
        const tail = streamingTail(text, 30, 5);
        if (!tail) continue;
        const all = wrapWords(text.replace(/\n$/, ""), 28);
        expect(tail.rows, JSON.stringify(text.slice(-60))).toEqual(all.slice(-4));
        expect(tail.hidden).toBe(all.length - 4);
      }
    }
  });

  it("counts finished lines above the growing one", () => {
    const text = `${WORDS.slice(0, 50).join(" ")}\n${WORDS.slice(50, 60).join(" ")}`;
    const tail = streamingTail(text, 40, 6);
    const all = text.split("\n").flatMap((line) => wrapWords(line, 38));
    expect(tail).toEqual({ rows: all.slice(-5), hidden: all.length - 5 });
  });
});
