import { describe, expect, it } from "vitest";
import { cleanedPart } from "../../src/core/policy/cleaned-part.js";
import type { TextRedaction } from "../../src/core/policy/secret-patterns.js";

/** Colour codes stripped, and a key (found only whole) redacted: the two ways cleaning shortens text. */
function clean(text: string): Promise<TextRedaction> {
  const keys = text.match(/KEY-[A-Z]{400}/g) ?? [];
  const shown = text.replaceAll(ESCAPE, "").replace(/\[\d+m/g, "");
  return Promise.resolve({ text: shown.replace(/KEY-[A-Z]{400}/g, "[R]"), rules: keys.map(() => "key") });
}

const ESCAPE = String.fromCharCode(27);
/** Long, so that redacted it shrinks a hundredfold: what is kept reaches far past a fixed margin. */
const KEY = `KEY-${"Q".repeat(400)}`;
/** Written as 83 characters, shown as 3. */
const COLOURED = `${"\u001b[1m".repeat(10)}ok${"\u001b[0m".repeat(10)}\n`;

describe("cleanedPart", () => {
  it("never keeps part of a key its reading cut, however much the cleaning shortened the rest", async () => {
    for (let before = 0; before < 400; before += 1) {
      const text = `${COLOURED.repeat(before)}${KEY}${COLOURED.repeat(2000)}`;
      for (const from of ["start", "end"] as const) {
        const keyFirst = from === "start" ? text : `${COLOURED.repeat(2000)}${KEY}${COLOURED.repeat(before)}`;
        const part = await cleanedPart(keyFirst, 1000, from, clean);
        expect(part.text, `${from}, ${before} lines`).not.toMatch(/KEY|QQ/);
        expect(part.text.length).toBe(1000);
        expect(part.cut).toBe(true);
      }
    }
    // 800 readings: 11 s alone at load 9 on two cores, past 30 s beside the rest of the suite.
  }, 120_000);

  it("reads again with more when keys redacted inside the kept part pull the cut past the margin", async () => {
    const text = `${"x".repeat(100)}${KEY}${`${KEY}\n`.repeat(400)}`;
    const part = await cleanedPart(text, 1000, "end", clean);
    expect(part.text).toMatch(/^(\[R\]\n)+$/);
    expect(part.rules.length).toBeGreaterThan(300);
  });

  it("keeps a short text whole, uncut, and counts what a long one would come to", async () => {
    expect(await cleanedPart(`a${COLOURED}`, 1000, "start", clean)).toEqual({
      text: "aok\n",
      rules: [],
      cut: false,
      total: 4,
    });
    const long = "y".repeat(100_000);
    const part = await cleanedPart(long, 1000, "start", clean);
    expect(part).toMatchObject({ cut: true, total: 100_000 });
    expect(part.text).toBe("y".repeat(1000));
  });

  it("never keeps half of a surrogate pair at the cut", async () => {
    const emoji = "😀".repeat(600);
    const start = await cleanedPart(emoji, 1001, "start", clean);
    expect(start.text).toBe("😀".repeat(500));
    const end = await cleanedPart(emoji, 1001, "end", clean);
    expect(end.text).toBe("😀".repeat(500));
  });

  it("reads a text that cleans away almost whole in a few passes, not one per margin", async () => {
    let passes = 0;
    const counting = (text: string): Promise<TextRedaction> => {
      passes += 1;
      return clean(text);
    };
    const part = await cleanedPart(`${`${ESCAPE}[0m`.repeat(1_000_000)}tail`, 1000, "start", counting);
    expect(part).toMatchObject({ text: "tail", cut: false });
    expect(passes).toBeLessThanOrEqual(10);
  });
});
