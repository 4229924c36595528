import { describe, expect, it } from "vitest";
import { base64Bytes, looksLikeBase64 } from "../../src/core/text/index.js";

const encoded = (bytes: number): string =>
  Buffer.from(Array.from({ length: bytes }, (_, index) => (index * 53) % 256)).toString("base64");

describe("looksLikeBase64", () => {
  it.each([
    [encoded(300), true],
    [`${encoded(57)}\n${encoded(57)}`, true],
    ["x".repeat(500), false],
    ["0123456789abcdef".repeat(20), false],
    ["SomeVeryLongIdentifierWithoutDigits".repeat(8), false],
    [`${encoded(300)} and words`, false],
  ])("%#", (text, expected) => {
    expect(looksLikeBase64(text)).toBe(expected);
  });
});

describe("base64Bytes", () => {
  it.each([1, 2, 3, 100, 301])("%i bytes", (bytes) => {
    expect(base64Bytes(encoded(bytes))).toBe(bytes);
  });
});
