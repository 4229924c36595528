import { describe, expect, it } from "vitest";
import { ignoredFor, parseIgnoreRule } from "../../src/core/replay/ignore-rules.js";
import { slowdown } from "../../src/headless/replay-calls.js";

const texts = (
  rules: ReturnType<typeof parseIgnoreRule>[],
  call: { kind: string; server: string; target: string },
) =>
  ignoredFor(
    rules.filter((rule) => typeof rule !== "string"),
    call,
  ).map((path) => path.text);

describe("ignore rules", () => {
  it.each([
    ["$.structuredContent.etag", undefined, "$.structuredContent.etag"],
    ["get_page:$.etag", "get_page", "$.etag"],
    ["docs/get_page: $..ts", "docs/get_page", "$..ts"],
    // A key with a colon is written in brackets; a path without $ is never scoped.
    ["$['a:b']", undefined, "$['a:b']"],
  ])("%s", (text, scope, path) => {
    const rule = parseIgnoreRule(text);
    expect(rule).toMatchObject({ scope, path: { text: path } });
  });

  it("says what is wrong with a scoped path as with any other", () => {
    expect(parseIgnoreRule("get_page:$.a[")).toMatch(/is not a JSON path this replay understands/);
  });

  it("leaves a path out of the answers of its tool or prompt only", () => {
    const rules = ["$.a", "get_page:$.b", "docs/search:$.c", "review:$.d"].map(parseIgnoreRule);
    expect(texts(rules, { kind: "tool", server: "docs", target: "get_page" })).toEqual(["$.a", "$.b"]);
    expect(texts(rules, { kind: "tool", server: "docs", target: "search" })).toEqual(["$.a", "$.c"]);
    expect(texts(rules, { kind: "tool", server: "wiki", target: "search" })).toEqual(["$.a"]);
    expect(texts(rules, { kind: "prompt", server: "docs", target: "review" })).toEqual(["$.a", "$.d"]);
    expect(texts(rules, { kind: "resource", server: "docs", target: "get_page" })).toEqual(["$.a"]);
  });
});

describe("slowdown", () => {
  const limits = { slowFactor: 10, slowMs: 1000 };
  it.each<[number | undefined, number, boolean]>([
    [4, 3012, true],
    // Many times slower, but by little: noise.
    [2, 900, false],
    // Much slower in time, but not by the factor.
    [2000, 9000, false],
    [0, 1500, true],
    [undefined, 60_000, false],
  ])("recorded %s ms, replayed %s ms: slow %s", (recorded, replayed, slow) => {
    expect(slowdown(recorded, replayed, limits) !== undefined).toBe(slow);
  });

  it("says by how much, and the limits to change", () => {
    expect(slowdown(4, 3012, limits)).toBe(
      "3012 ms against 4 ms recorded, 753x (the limits: over 10x and over 1000 ms slower; --slow-factor, --slow-ms)",
    );
  });
});
