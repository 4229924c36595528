import { describe, expect, it } from "vitest";
import { describeDuplicateKey, findDuplicateKey } from "../../src/core/config/json-duplicate-keys.js";

describe("findDuplicateKey", () => {
  it.each<[string, string, string | undefined]>([
    ["no duplicates", '{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}', undefined],
    ["the same key in sibling objects", '{"x": {"k": 1}, "y": {"k": 2}}', undefined],
    ["a value equal to a key", '{"a": "a", "b": ["a", "b"]}', undefined],
    ["a key and a value with escaped quotes", '{"a\\"": "\\"a", "b": "x\\\\"}', undefined],
    ["a top-level duplicate", '{"kb": {}, "kb": {}}', 'the top level has "kb" twice'],
    ["a server written twice", '{"mcpServers": {"f": {}, "g": {}, "f": {}}}', 'mcpServers has "f" twice'],
    [
      "a command written twice inside one server",
      '{"mcpServers": {"f": {"command": "a", "args": [], "command": "b"}}}',
      'mcpServers.f has "command" twice',
    ],
    [
      "an env key written twice",
      '{"mcpServers": {"f": {"env": {"A": "1", "A": "2"}}}}',
      'mcpServers.f.env has "A" twice',
    ],
    ["inside an object in an array", '{"list": [1, {"a": 1, "a": 2}]}', 'list[1] has "a" twice'],
    ["a name that is not a plain word", '{"s": {"my s": {}, "my s": {}}}', 's has "my s" twice'],
    [
      "the same key spelled with an escape",
      '{"fetch": 1, "f\\u0065tch": 2}',
      'the top level has "fetch" twice',
    ],
    ["an empty key twice", '{"": 1, "": 2}', 'the top level has "" twice'],
  ])("%s", (_name, text, expected) => {
    // Every case is JSON that JSON.parse accepts, as the loader only scans such text.
    expect(() => JSON.parse(text) as unknown).not.toThrow();
    const found = findDuplicateKey(text);
    expect(found && describeDuplicateKey(found).replace(/ \(line.*$/, "")).toBe(expected);
  });

  it("gives the line and column of both places", () => {
    const text = [
      "{",
      '  "mcpServers": {',
      '    "fetch": { "command": "a" },',
      '    "fetch": {}',
      "  }",
      "}",
    ].join("\r\n");
    const found = findDuplicateKey(text);
    expect(found).toEqual({
      path: ["mcpServers"],
      key: "fetch",
      first: { line: 3, column: 5 },
      second: { line: 4, column: 5 },
    });
    expect(found && describeDuplicateKey(found)).toBe(
      'mcpServers has "fetch" twice (line 3, column 5 and line 4, column 5); keep one.',
    );
  });

  it("copes with nesting deeper than a recursive parser's stack", () => {
    const depth = 20_000;
    const text = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    expect(findDuplicateKey(text)).toBeUndefined();
  });
});
