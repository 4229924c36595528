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

  it.each([1, 3, 7])("holds an option named as a secret with its value, in %i-character pieces", (size) => {
    const text = `run it as srv --db-password Tr0ub4dor-and-3 --password "correct horse battery" --port 8080 and done`;
    expect(stream(text, size).join("")).toBe(
      `run it as srv --db-password [REDACTED] --password "[REDACTED]" --port 8080 and done`,
    );
  });

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

  /** Streams `text` in `size`-character pieces: what was shown before the end, and all of it. */
  function streamed(text: string, size = 4): { beforeTheEnd: string; all: string } {
    const redactor = new StreamRedactor(redact);
    let beforeTheEnd = "";
    for (let at = 0; at < text.length; at += size) beforeTheEnd += redactor.push(text.slice(at, at + size));
    return { beforeTheEnd, all: beforeTheEnd + redactor.flush() };
  }

  it.each(["Bearer ", "password = "])(
    "shows a value after %j that runs past any hold redacted, and none of the rest of it",
    (start) => {
      // Held to the end, each piece read the whole hold again: 200 KB took 12 to 19 s.
      const { beforeTheEnd, all } = streamed(`said: ${start}${"Ab9_-".repeat(40_000)} and then more.`);
      expect(beforeTheEnd.startsWith(`said: ${start}[REDACTED]`)).toBe(true);
      expect(all).toBe(`said: ${start}[REDACTED] and then more.`);
    },
  );

  it("drops all of a quoted value longer than any hold, its spaces too, up to its quote", () => {
    const value = "correct horse battery staple ".repeat(800);
    const { all } = streamed(`password = "${value}" ok`);
    expect(all).toBe('password = "[REDACTED]" ok');
  });

  it("shows what only looked like the start of a secret once it runs past any hold", () => {
    const image = `![login page](data:image/png;base64,${"iVBORw0KGgo".repeat(4000)}) done`;
    expect(streamed(image).all).toBe(image);
    const certificate = `-----BEGIN CERTIFICATE-----\n${"MIIBszCCAVmgAwIBAgIU\n".repeat(1000)}-----END CERTIFICATE-----\n`;
    expect(streamed(certificate).all).toBe(certificate);
  });

  it.each([1, 8, 61])("shows no line of a key longer than any hold (%i-character pieces)", (size) => {
    const line = (index: number): string =>
      `K${String(index).padStart(3, "0")}${"QUJDREVGR0hJSktMTU5P".repeat(3)}`;
    const body = Array.from({ length: 300 }, (_, index) => line(index)).join("\n");
    const key = `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`;
    const { all } = streamed(`key:\n${key}\nafter the key\n`, size);
    expect(all).toBe("key:\n[REDACTED]\nafter the key\n");
  });

  it("drops the rest of a too-long key quoted in JSON, its lines joined by \\n escapes", () => {
    const body = Array.from(
      { length: 300 },
      () => "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVowMTIzNDU2Nzg5YWJjZGVm",
    ).join("\\n");
    const { all } = streamed(
      `{"key":"-----BEGIN PRIVATE KEY-----\\n${body}\\n-----END PRIVATE KEY-----"} done`,
    );
    expect(all).toBe('{"key":"[REDACTED]"} done');
  });

  it("shows a PEM first line followed by prose without end, once it runs past any hold", () => {
    const text = `-----BEGIN RSA PRIVATE KEY-----\n${"no end line comes, only words ".repeat(7_000)}`;
    const { beforeTheEnd, all } = streamed(text);
    expect(beforeTheEnd.length).toBeGreaterThan(text.length - 20_000);
    expect(all).toBe(text);
  });

  it.each([4, 33])("shows no line of an indented key longer than any hold (%i)", (size) => {
    const body = Array.from(
      { length: 300 },
      (_, index) => `    K${String(index).padStart(3, "0")}${"QUJDREVGR0hJSktMTU5P".repeat(3)}  `,
    );
    const { all } = streamed(`-----BEGIN PRIVATE KEY-----\n${body.join("\n")}\n`, size);
    expect(all).not.toMatch(/K\d{3}QUJD/);
  });

  it("reads a long run once per piece, not once per character in it, before the prose after it", () => {
    // `/\S*$/` tried every start in the run for each piece: 17 KB took 74 s.
    const body = Array.from({ length: 200 }, () => "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVowMTIzNDU2Nzg5").join(
      "\\n",
    );
    const text = `{"key":"-----BEGIN PRIVATE KEY-----\\n${body}"} ${"and here is what that means. ".repeat(110)}`;
    const { all } = streamed(text);
    expect(all).not.toContain("QUJDREVG");
    expect(all.endsWith("and here is what that means. ")).toBe(true);
  });

  it("reads a long hold again only once it has grown by a part of itself, not on every piece", () => {
    // Each hold's read walks the spaced secrets once; counting those walks counts the reads.
    let reads = 0;
    class CountedList extends Array<string> {
      override [Symbol.iterator](): ArrayIterator<string> {
        reads += 1;
        return super[Symbol.iterator]();
      }
    }
    const redactor = new StreamRedactor(redact, CountedList.of("open sesame"));
    const token = "Ab9_-".repeat(3000);
    const text = `Authorization: Bearer ${token} and again Bearer ${token} done.`.repeat(2);
    let shown = "";
    for (const character of text) shown += redactor.push(character);
    shown += redactor.flush();
    expect(shown).toBe("Authorization: Bearer [REDACTED] and again Bearer [REDACTED] done.".repeat(2));
    // Read on every piece, this was one read per character: 60,000, each of up to 15 KB.
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThan(text.length / 20);
  });

  it("shows what follows a long hold soon after it ends, without waiting for the stream's end", () => {
    const certificate = `-----BEGIN CERTIFICATE-----\n${"MIIBszCCAVmgAwIBAgIUQUJDREVGR0hJSktMTU5P\n".repeat(100)}-----END CERTIFICATE-----\n`;
    const text = `${certificate}${"That is the server's certificate, and it expires next year. ".repeat(3)}`;
    const { beforeTheEnd, all } = streamed(text, 1);
    expect(all).toBe(text);
    expect(beforeTheEnd.startsWith(`${certificate}That is the server's certificate`)).toBe(true);
  });

  it.each([1, 3])(
    "holds every assignment the secret-assignment rule knows until its value is whole (%i)",
    (size) => {
      const text = [
        "token = abcdefgh12345678XYZ",
        'token = "correct horse battery staple"',
        'SECRET_KEY = "django insecure key with spaces"',
        "aws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY",
        "secret_key_base = 0123456789abcdef0123456789abcdef",
        "MYSQL_ROOT_PASSWORD = s3cr3t-root-pw-9",
      ].join(" and ");
      const out = stream(text, size).join("");
      expect(out).toBe(redact(text));
      expect(out).not.toMatch(/abcdefgh1234|horse|django|wJalr|0123456789abcdef|s3cr3t/);
    },
  );

  it.each([1, 7, 10, 27, 50, 600])(
    "holds a long JWT inside JSON from its first part, so none of it shows, whatever follows it (%i)",
    (size) => {
      const part = (n: number) => "Ab9_-".repeat(n);
      const jwt = `eyJ${part(10)}.eyJ${part(150)}.${part(60)}`;
      for (const after of ["} done", ',"x":1}\nok\n', `,"scope":"${"a".repeat(300)}","refresh":"r"}`]) {
        const text = `here: {"id_token":"${jwt}"${after}`;
        expect(stream(text, size).join("")).toBe(redact(text));
      }
    },
  );

  it.each([1, 5, 13])("holds a Docker config's auth value until it is whole (%i)", (size) => {
    const text = '{"auths": {"r.io": {"auth": "dXNlcjpzM2NyM3RwYXNzd29yZA=="}}}\n';
    expect(stream(text, size).join("")).toBe('{"auths": {"r.io": {"auth": "[REDACTED]"}}}\n');
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
