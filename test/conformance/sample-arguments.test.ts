import { describe, expect, it } from "vitest";
import { sampleArguments } from "./sample-arguments.js";

const number = { type: "number" };

describe("sampleArguments", () => {
  it.for([
    ["no schema", undefined, {}],
    ["no properties", { type: "object" }, {}],
    [
      "numbers count up",
      { type: "object", properties: { a: number, b: number }, required: ["a", "b"] },
      { a: 1, b: 2 },
    ],
    [
      "optional ones are left out",
      { type: "object", properties: { a: number, b: number }, required: ["b"] },
      { b: 1 },
    ],
    ["a default wins", { properties: { n: { type: "integer", default: 7 } }, required: ["n"] }, { n: 7 }],
    [
      "the first enum value",
      { properties: { s: { type: "string", enum: ["x", "y"] } }, required: ["s"] },
      { s: "x" },
    ],
    [
      "every other type",
      {
        properties: {
          t: { type: "string" },
          f: { type: "boolean" },
          l: { type: "array" },
          o: { type: "object" },
        },
        required: ["t", "f", "l", "o"],
      },
      { t: "sample", f: true, l: [], o: {} },
    ],
  ] as const)("%s", ([, schema, expected]) => {
    expect(sampleArguments(schema)).toEqual(expected);
  });
});
