import { describe, expect, it } from "vitest";
import { expandEnv } from "../../src/core/config/expand-env.js";

const env = { TOKEN: "abc", EMPTY: "", PORT: "8080" };

describe("expandEnv", () => {
  it.each([
    ["no variables", "plain text", "plain text", [], []],
    ["a set variable", "Bearer ${TOKEN}", "Bearer abc", [], ["TOKEN"]],
    ["two variables", "${TOKEN}:${PORT}", "abc:8080", [], ["TOKEN", "PORT"]],
    ["a default for an unset variable", "${LOG_LEVEL:-info}", "info", [], []],
    ["a default for an empty variable", "${EMPTY:-fallback}", "fallback", [], []],
    ["a set variable ignores its default", "${PORT:-1}", "8080", [], ["PORT"]],
    ["an empty default", "x${NOPE:-}y", "xy", [], []],
    ["an empty variable without default", "[${EMPTY}]", "[]", [], []],
    ["an unset variable", "Bearer ${MISSING}", "Bearer ", ["MISSING"], []],
    ["an unset variable used twice", "${A}${B}${A}", "", ["A", "B"], []],
    ["a set variable used twice", "${TOKEN}/${TOKEN}", "abc/abc", [], ["TOKEN"]],
    ["$VAR without braces is left alone", "$TOKEN", "$TOKEN", [], []],
    ["an invalid name is left alone", "${1abc}", "${1abc}", [], []],
  ])("%s", (_name, input, value, missing, used) => {
    expect(expandEnv(input, env)).toEqual({ value, missing, used });
  });
});
