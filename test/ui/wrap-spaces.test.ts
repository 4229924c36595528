import { describe, expect, it } from "vitest";
import { dropWrapSpaces } from "../../src/ui/terminal/wrap-spaces.js";

const DIM = "\u001b[2m";
const UNDIM = "\u001b[22m";

/** What Ink's wrap (wrap-ansi, not trimming) made of each text, as it makes it. */
describe("dropWrapSpaces", () => {
  it.each([
    // A word ending at the edge: wrap-ansi starts the next row with the space after it.
    [
      "a resource link a tool returned",
      "a resource link a tool\n returned",
      "a resource link a tool\nreturned",
    ],
    // A word that does not fit leaves its space at the end of the row: nothing to take.
    [
      "a resource link a tool returned",
      "a resource link a \ntool returned",
      "a resource link a \ntool returned",
    ],
    // A row of nothing but the space goes.
    ["aaaa bbbb", "aaaa\n \nbbbb", "aaaa\nbbbb"],
    ["aaaa  bbbb", "aaaa\n  \nbbbb", "aaaa\nbbbb"],
    // A line's own indentation stays, on the first line and on the next.
    ["    ✗ the value\n  next", "    ✗ the\n value\n  next", "    ✗ the\nvalue\n  next"],
    ["xxxxx\n  indented", "xxxxx\n  indented", "xxxxx\n  indented"],
    ["", "", ""],
    ["a\n\nb", "a\n\nb", "a\n\nb"],
    // Styles reopened at the start of the row stay; the space after them goes.
    [`${DIM}ab cd${UNDIM}`, `${DIM}ab${UNDIM}\n${DIM} cd${UNDIM}`, `${DIM}ab${UNDIM}\n${DIM}cd${UNDIM}`],
  ])("%j wrapped as %j", (text, wrapped, expected) => {
    expect(dropWrapSpaces(text, wrapped)).toBe(expected);
  });

  it("leaves rows that do not add up to the text as they came", () => {
    expect(dropWrapSpaces("ab cd", "ab\n cdx")).toBe("ab\n cdx");
    expect(dropWrapSpaces("ab cd", "ab")).toBe("ab");
    expect(dropWrapSpaces("ab", "ab\n extra")).toBe("ab\n extra");
  });
});
