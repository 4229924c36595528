import { describe, expect, it } from "vitest";
import { expandEnv } from "../../src/core/config/expand-env.js";
import { urlUserinfoSpan } from "../../src/core/config/url-credentials.js";

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
    const { placed: _placed, ...expanded } = expandEnv(input, env);
    expect(expanded).toEqual({ value, missing, used });
  });

  it("says where each value from the environment went: the offset of its ${…}", () => {
    expect(expandEnv("a${TOKEN}b${NOPE:-x}c${PORT}", env).placed).toEqual([
      { value: "abc", offset: 1 },
      { value: "8080", offset: 21 },
    ]);
  });
});

describe("expandEnv, percent-encoding where asked", () => {
  const inUserinfo = (text: string): ((offset: number) => boolean) => {
    const span = urlUserinfoSpan(text);
    return (offset) => span !== undefined && offset >= span[0] && offset < span[1];
  };
  const secrets = { USER: "a@b", PASS: "p/w#d?%41:x", HOST: "h.example", PATH_PART: "a b" };

  it.each([
    ["user and password", "https://${USER}:${PASS}@host/mcp", "https://a%40b:p%2Fw%23d%3F%2541%3Ax@host/mcp"],
    [
      "a literal user name",
      "https://me:${PASS}@${HOST}/mcp",
      "https://me:p%2Fw%23d%3F%2541%3Ax@h.example/mcp",
    ],
    ["no user information: nothing encoded", "https://${HOST}/${PATH_PART}", "https://h.example/a b"],
    ["a whole URL from one variable: left as given", "${URL_VAR:-https://u:p@h/}", "https://u:p@h/"],
    [
      "an @ after the path is not user information",
      "https://${HOST}/x@${PASS}",
      "https://h.example/x@p/w#d?%41:x",
    ],
    [
      "a default holding a slash",
      "https://${U2:-me/you}:${PASS}@host/",
      "https://me%2Fyou:p%2Fw%23d%3F%2541%3Ax@host/",
    ],
  ])("%s", (_name, input, value) => {
    expect(expandEnv(input, secrets, inUserinfo(input)).value).toBe(value);
  });

  it("finds the user information as a URL parser would, by the authority's last @", () => {
    expect(urlUserinfoSpan("https://a@b@host/p@q")).toEqual([8, 11]);
    expect(urlUserinfoSpan("https://host/p@q")).toBeUndefined();
    expect(urlUserinfoSpan("host@x")).toBeUndefined();
  });
});
