import { describe, expect, it } from "vitest";
import { MAX_NESTING, TOO_DEEP_TO_READ, withinNesting } from "../../src/core/policy/nesting-limit.js";

/** `levels` arrays inside one another, the innermost holding `leaf`. */
function nested(levels: number, leaf: unknown = "leaf"): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < levels; level += 1) value = [value];
  return value;
}

describe("withinNesting", () => {
  it("hands back the very message when it nests no deeper than MAX_NESTING", () => {
    const message = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "x" }] } };
    expect(withinNesting(message)).toBe(message);
    const deepest = nested(MAX_NESTING);
    expect(withinNesting(deepest)).toBe(deepest);
  });

  it("cuts the first level past MAX_NESTING and says so, keeping everything above it", () => {
    const message = { id: 7, result: nested(MAX_NESTING + 5), beside: ["kept"] };
    const cut = withinNesting(message);
    expect(cut).not.toBe(message);
    expect(cut.beside).toEqual(["kept"]);
    expect(JSON.stringify(cut)).toBe(
      JSON.stringify({ id: 7, result: nested(MAX_NESTING - 1, TOO_DEEP_TO_READ), beside: ["kept"] }),
    );
  });

  it("reads a message a million levels deep without running out of stack", () => {
    const cut = withinNesting({ result: nested(1_000_000) });
    expect(JSON.stringify(cut)).toContain(TOO_DEEP_TO_READ);
  });

  it("keeps a key named __proto__ as a key of the copy", () => {
    const message = JSON.parse(`{"__proto__": ${JSON.stringify(nested(MAX_NESTING + 1))}}`) as object;
    const cut = withinNesting(message);
    expect(Object.getPrototypeOf(cut)).toBe(Object.prototype);
    expect(Object.keys(cut)).toEqual(["__proto__"]);
  });
});
