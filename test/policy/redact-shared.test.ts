import { describe, expect, it } from "vitest";
import { redactDeep, redactShared, renameKeys } from "../../src/core/policy/redact-deep.js";

const hideSecret = (text: string): string => text.replaceAll("hunter2", "[REDACTED]");

const VALUES: Array<[string, unknown]> = [
  ["a string", "my hunter2"],
  [
    "a plain record",
    { type: "wire", n: 1, ok: true, none: null, missing: undefined, message: { text: "x" } },
  ],
  ["a secret deep inside", { a: { b: [1, "two", { c: "hunter2 here" }] }, after: "plain" }],
  ["a secret in the last key", { first: "a", second: ["b", "c"], last: "hunter2" }],
  // Holes, as a server's array never has but a record could.
  [
    "arrays with holes and a secret after them",
    Object.assign(new Array<unknown>(5), { 0: 1, 2: "x", 4: "hunter2" }),
  ],
  [
    "a key named __proto__, parsed from JSON",
    JSON.parse('{"__proto__": {"text": "hunter2"}, "x": "y"}') as unknown,
  ],
  ["an unchanged __proto__ key", JSON.parse('{"__proto__": {"text": "fine"}, "x": "y"}') as unknown],
  ["a Date and a Buffer", { at: new Date(0), bytes: Buffer.from("hunter2") }],
  ["a class instance", { error: new Error("hunter2"), map: new Map([["k", "hunter2"]]) }],
  ["an object without a prototype", Object.assign(Object.create(null) as object, { text: "hunter2" })],
];

describe("redactShared", () => {
  it.each(VALUES)("serializes %s exactly as redactDeep's copy does", (_what, value) => {
    const before = JSON.stringify(value);
    expect(JSON.stringify(redactShared(value, hideSecret))).toBe(
      JSON.stringify(redactDeep(value, hideSecret)),
    );
    // Never changed in place.
    expect(JSON.stringify(value)).toBe(before);
  });

  it("gives back the value itself where nothing in it changed, and copies only the path to a change", () => {
    const unchanged = { a: { b: ["x", 1] }, c: "plain" };
    expect(redactShared(unchanged, hideSecret)).toBe(unchanged);
    const changed = { keep: { deep: ["x"] }, hit: { text: "hunter2" } };
    const redacted = redactShared(changed, hideSecret);
    expect(redacted).not.toBe(changed);
    expect(redacted.keep).toBe(changed.keep);
    expect(redacted.hit).toEqual({ text: "[REDACTED]" });
    expect(changed.hit.text).toBe("hunter2");
  });

  it("asks about every string in the order redactDeep does", () => {
    const value = { a: "1", b: ["2", { c: "3" }], d: "4" };
    const seen: string[][] = [[], []];
    redactDeep(value, (text) => (seen[0]?.push(text), text));
    redactShared(value, (text) => (seen[1]?.push(text), text));
    expect(seen[1]).toEqual(seen[0]);
  });
});

describe("renameKeys", () => {
  it("keeps every entry when keys are renamed alike, numbering past names already there", () => {
    const keys = Object.fromEntries(Array.from({ length: 2000 }, (_, index) => [`secret${index}`, index]));
    const renamed: Record<string, unknown> = renameKeys({ "X 2": "kept", ...keys }, (key) =>
      key.startsWith("secret") ? "X" : key,
    );
    expect(Object.keys(renamed)).toHaveLength(2001);
    expect(renamed["X 2"]).toBe("kept");
    expect(renamed.X).toBe(0);
    expect(renamed["X 3"]).toBe(1);
    expect(renamed["X 2001"]).toBe(1999);
  });

  it("gives back what it does not rename, and keeps a __proto__ key a key", () => {
    const value = { a: [{ b: 1 }], c: "d" };
    expect(renameKeys(value, (key) => key)).toBe(value);
    const parsed = JSON.parse('{"__proto__": {"x": 1}, "tok": 2}') as object;
    const renamed = renameKeys(parsed, (key) => (key === "tok" ? "[REDACTED]" : key));
    expect(JSON.stringify(renamed)).toBe('{"__proto__":{"x":1},"[REDACTED]":2}');
  });
});
