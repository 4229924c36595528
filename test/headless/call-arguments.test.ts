import { describe, expect, it } from "vitest";
import { bindCallArguments, readCallWords } from "../../src/headless/call-arguments.js";

const SCHEMA = {
  type: "object",
  properties: {
    query: { type: "string" },
    limit: { type: "integer" },
    ratio: { type: "number" },
    exact: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    where: { type: "object" },
    since: { anyOf: [{ type: "integer" }, { type: "null" }] },
  },
};

const bound = (...words: string[]) => {
  const typed = readCallWords(words);
  if (typeof typed === "string") throw new Error(typed);
  return bindCallArguments(typed, SCHEMA);
};

describe("call arguments typed on the command line", () => {
  it.each<[string[], Record<string, unknown>]>([
    [[], {}],
    [['{"query":"a b"}'], { query: "a b" }],
    [
      ["query=a b", "limit=5", "ratio=0.5", "exact=true"],
      { query: "a b", limit: 5, ratio: 0.5, exact: true },
    ],
    // A value that is a number but typed as text stays text; = inside a value is kept.
    [["query=007", 'where={"x":1}', 'tags=["a","b"]'], { query: "007", where: { x: 1 }, tags: ["a", "b"] }],
    [["query=a=b"], { query: "a=b" }],
    // A word wins over the same key in the JSON.
    [['{"query":"old","limit":2}', "query=new"], { query: "new", limit: 2 }],
    [["since=null", "since2=3"], { since: null, since2: "3" }],
    // What does not read as its type stays as typed, for the schema check to name.
    [["limit=many", "exact=yes"], { limit: "many", exact: "yes" }],
    // Numbers as JSON writes them, not as JavaScript reads text: the schema check names the rest.
    [["limit=-12", "ratio=1.5e3"], { limit: -12, ratio: 1500 }],
    [["limit=0x10", "ratio=0b101", "since= 3 "], { limit: "0x10", ratio: "0b101", since: " 3 " }],
    [["limit=Infinity", "ratio=1."], { limit: "Infinity", ratio: "1." }],
    [["limit=1e400", "ratio=-1e999"], { limit: "1e400", ratio: "-1e999" }],
  ])("%j", (words, expected) => {
    expect(bound(...words)).toEqual(expected);
  });

  it.each([
    [["{a: 1}"], /^The tool arguments are not a JSON object: /],
    [["[1]"], /^The tool arguments are not a JSON object: expected an object, got an array/],
    [['{"a":1}', '{"b":2}'], /^The arguments hold two JSON objects/],
    [["a=1", "a=2"], /^The argument a= was given twice; give it once$/],
    [["hello"], /^The tool arguments are not a JSON object/],
  ])("%j is refused in one sentence", (words, message) => {
    expect(readCallWords(words)).toMatch(message);
  });
});
