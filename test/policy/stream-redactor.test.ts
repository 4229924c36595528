import { describe, expect, it } from "vitest";
import { StreamRedactor } from "../../src/core/policy/stream-redactor.js";
import { redactWithPatterns } from "../../src/core/policy/secret-patterns.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";

const redact = (text: string): string => redactWithPatterns(text).text;

/** Streams `text` in pieces of `size` characters and collects what the redactor releases. */
function stream(text: string, size: number): string[] {
  const redactor = new StreamRedactor(redact);
  const released: string[] = [];
  for (let start = 0; start < text.length; start += size) {
    const out = redactor.push(text.slice(start, start + size));
    if (out) released.push(out);
  }
  released.push(redactor.flush());
  return released;
}

describe("StreamRedactor", () => {
  it.each([1, 3, 7, 50])("never releases a key split across %i-character pieces", (size) => {
    const text = `Here is the key:\n${FAKE_OPENAI_KEY}\nand password: hunter2secret in one line.\nDone.`;
    const out = stream(text, size).join("");
    expect(out).not.toContain(FAKE_OPENAI_KEY);
    expect(out).not.toContain("hunter2secret");
    expect(out).toBe("Here is the key:\n[REDACTED]\nand password: [REDACTED] in one line.\nDone.");
  });

  it("releases text line by line, and a very long line at a space well behind its end", () => {
    expect(stream("one\ntwo\nthree", 2)).toEqual(["one\n", "two\n", "three"]);
    const long = `${"word ".repeat(300)}tail`;
    const pieces = stream(long, 10);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.join("")).toBe(long);
  });

  it("holds a PEM block until it closes", () => {
    const pem =
      "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nabc\n-----END PRIVATE KEY-----\n";
    const pieces = stream(`key:\n${pem}ok\n`, 4);
    expect(pieces.join("")).toBe("key:\n[REDACTED]\nok\n");
    expect(pieces.some((piece) => piece.includes("MIIE"))).toBe(false);
  });
});
