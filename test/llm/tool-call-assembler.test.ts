import { describe, expect, it } from "vitest";
import { assembleToolCalls, type ToolCallDelta } from "../../src/core/llm/tool-call-assembler.js";

const call = (id: string, name: string, args: string) => ({ id, name, arguments: args });

describe("assembleToolCalls", () => {
  const cases: Array<[string, ToolCallDelta[], ReturnType<typeof call>[]]> = [
    ["no deltas", [], []],
    [
      "one call split across deltas",
      [
        { index: 0, id: "a", function: { name: "read", arguments: "" } },
        { index: 0, function: { arguments: '{"pa' } },
        { index: 0, function: { arguments: 'th":"x"}' } },
      ],
      [call("a", "read", '{"path":"x"}')],
    ],
    [
      "two calls interleaved by index",
      [
        { index: 0, id: "a", function: { name: "one", arguments: "" } },
        { index: 1, id: "b", function: { name: "two", arguments: "" } },
        { index: 1, function: { arguments: "{}" } },
        { index: 0, function: { arguments: "[1]" } },
      ],
      [call("a", "one", "[1]"), call("b", "two", "{}")],
    ],
    [
      "name arriving in pieces",
      [
        { index: 0, id: "a", function: { name: "file" } },
        { index: 0, function: { name: "system__read" } },
        { index: 0, function: { arguments: "{}" } },
      ],
      [call("a", "filesystem__read", "{}")],
    ],
    [
      "whole name repeated in every delta",
      [
        { index: 0, id: "a", function: { name: "read", arguments: "{" } },
        { index: 0, function: { name: "read", arguments: "}" } },
      ],
      [call("a", "read", "{}")],
    ],
    [
      "whole calls in one delta each",
      [
        { index: 0, id: "a", function: { name: "one", arguments: "{}" } },
        { index: 1, id: "b", function: { name: "two", arguments: '{"x":1}' } },
      ],
      [call("a", "one", "{}"), call("b", "two", '{"x":1}')],
    ],
    [
      "no index: continues the last call",
      [{ id: "a", function: { name: "read", arguments: '{"p' } }, { function: { arguments: '":1}' } }],
      [call("a", "read", '{"p":1}')],
    ],
    [
      "no index: a new id starts a new call",
      [
        { id: "a", function: { name: "one", arguments: "{}" } },
        { id: "b", function: { name: "two", arguments: "" } },
        { function: { arguments: "{}" } },
      ],
      [call("a", "one", "{}"), call("b", "two", "{}")],
    ],
    [
      "the same index reused with a new id starts a new call",
      [
        { index: 0, id: "a", function: { name: "one", arguments: "{}" } },
        { index: 0, id: "b", function: { name: "two", arguments: "{}" } },
      ],
      [call("a", "one", "{}"), call("b", "two", "{}")],
    ],
    [
      "the id repeated on every delta",
      [
        { index: 0, id: "a", function: { name: "one", arguments: "{" } },
        { index: 0, id: "a", function: { arguments: "}" } },
      ],
      [call("a", "one", "{}")],
    ],
    [
      "missing id gets a stable one",
      [{ index: 0, function: { name: "one", arguments: "{}" } }],
      [call("call_0", "one", "{}")],
    ],
    [
      "nulls where servers send them",
      [
        { index: 0, id: "a", function: { name: "one", arguments: null } },
        { index: 0, id: null, function: null },
      ],
      [call("a", "one", "")],
    ],
  ];

  it.each(cases)("%s", (_name, deltas, expected) => {
    expect(assembleToolCalls(deltas)).toEqual(expected);
  });
});
