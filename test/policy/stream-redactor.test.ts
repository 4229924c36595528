import { describe, expect, it } from "vitest";
import { StreamRedactor } from "../../src/core/policy/stream-redactor.js";
import { redactWithPatterns } from "../../src/core/policy/secret-patterns.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";

const redact = (text: string): string => redactWithPatterns(text).text;

/** Streams `text` in pieces of `size` characters and collects what the redactor releases. */
function stream(text: string, size: number, spacedSecrets: string[] = []): string[] {
  const redactor = new StreamRedactor(
    (piece) => redactWithPatterns(piece, spacedSecrets).text,
    spacedSecrets,
  );
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

  it("releases every finished word at once, holding back only the word still arriving", () => {
    expect(stream("one\ntwo\nthree", 2)).toEqual(["one\n", "two\n", "three"]);
    const sentence =
      "A sentence of about two hundred characters that has no line break in it at all, ".repeat(3);
    const pieces = stream(sentence, 4);
    // Word by word, not a line at a time: the first words show long before the sentence ends.
    expect(pieces[0]).toBe("A ");
    expect(pieces.length).toBeGreaterThan(40);
    expect(pieces.join("")).toBe(sentence);
  });

  it.each([1, 2, 5, 9])(
    "keeps a quoted value with spaces, a Bearer token and a known secret with spaces whole in %i-character pieces",
    (size) => {
      const text =
        'config: password = "correct horse battery" then Authorization: Bearer abcdefghijklmnop0123 and the passphrase open sesame please now ok';
      const out = stream(text, size, ["open sesame please"]).join("");
      expect(out).not.toMatch(/correct|horse|battery/);
      expect(out).not.toContain("abcdefghijklmnop0123");
      expect(out).not.toMatch(/sesame/);
      expect(out).toBe(
        'config: password = "[REDACTED]" then Authorization: Bearer [REDACTED] and the passphrase [REDACTED] now ok',
      );
    },
  );

  it("releases most of a very long run without spaces, so a blob cannot stall the screen", () => {
    const blob = "x".repeat(3000);
    const redactor = new StreamRedactor(redact);
    let shown = "";
    for (let at = 0; at < blob.length; at += 100) shown += redactor.push(blob.slice(at, at + 100));
    expect(shown.length).toBeGreaterThan(2500);
    expect(shown + redactor.flush()).toBe(blob);
  });

  it("holds a PEM block until it closes", () => {
    const pem =
      "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nabc\n-----END PRIVATE KEY-----\n";
    const pieces = stream(`key:\n${pem}ok\n`, 4);
    expect(pieces.join("")).toBe("key:\n[REDACTED]\nok\n");
    expect(pieces.some((piece) => piece.includes("MIIE"))).toBe(false);
  });

  it.each([1, 3, 7, 29])("holds a closed PEM block whole when its END line is the last word (%i)", (size) => {
    const pem =
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END RSA PRIVATE KEY-----";
    const pieces = stream(`key: ${pem}`, size);
    expect(pieces.join("")).toBe("key: [REDACTED]");
    expect(pieces.some((piece) => piece.includes("MIIE"))).toBe(false);
  });

  it("redacts a PEM block that never closes when the stream ends", () => {
    const pieces = stream("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nMIIEvQIB", 5);
    expect(pieces.join("")).not.toContain("MIIE");
  });

  /** Streams `text` in 4-character pieces: what was shown before the end, and all of it. */
  function streamed(text: string): { beforeTheEnd: string; all: string } {
    const redactor = new StreamRedactor(redact);
    let beforeTheEnd = "";
    for (let at = 0; at < text.length; at += 4) beforeTheEnd += redactor.push(text.slice(at, at + 4));
    return { beforeTheEnd, all: beforeTheEnd + redactor.flush() };
  }

  it.each(["Bearer ", "password = "])(
    "lets a hold after %j go once it runs past any secret's length, its start redacted",
    (start) => {
      // Held to the end, each piece read the whole hold again: 200 KB took 12 to 19 s.
      const { beforeTheEnd, all } = streamed(start + "Ab9_-".repeat(40_000));
      expect(beforeTheEnd.length).toBeGreaterThan(150_000);
      expect(all.startsWith(`${start}[REDACTED]`)).toBe(true);
      expect(all.length).toBeLessThan(200_000 - 16_000);
    },
  );

  it("lets a PEM block that never closes go once it runs past any key's length", () => {
    const text = `-----BEGIN RSA PRIVATE KEY-----\n${"no end line comes, only words ".repeat(7_000)}`;
    const { beforeTheEnd, all } = streamed(text);
    expect(beforeTheEnd.length).toBeGreaterThan(text.length - 20_000);
    expect(all).toBe(text);
  });

  it.each([1, 7, 64])("holds a long JWT whole, so no piece of it shows (%i)", (size) => {
    const part = (n: number) => "Ab9_-".repeat(n);
    const jwt = `eyJ${part(60)}.eyJ${part(200)}.${part(80)}`;
    const pieces = stream(`token: ${jwt} ok\n`, size);
    expect(pieces.join("")).toBe("token: [REDACTED] ok\n");
    expect(pieces.some((piece) => piece.includes("Ab9_"))).toBe(false);
  });

  it.each([1, 5, 13])(
    "holds a netrc entry over several lines until its password is redacted (%i)",
    (size) => {
      const pieces = stream("machine example.com\n  login ann\n  password s3cr3t-pw\nnext line\n", size);
      expect(pieces.join("")).not.toContain("s3cr3t");
    },
  );
});
