import { describe, expect, it } from "vitest";
import { REDACTED, redactWithPatterns } from "../../src/core/policy/secret-patterns.js";

const BODY = "MIIEowIBAAKCAQEAx9Y7w0pq3vXk";
const key = (kind = "RSA "): string =>
  `-----BEGIN ${kind}PRIVATE KEY-----\n${BODY}\n-----END ${kind}PRIVATE KEY-----`;

function redacted(text: string): string {
  return redactWithPatterns(text).text;
}

describe("the private-key pattern", () => {
  it("takes out a key from its first line to its last, and each of two keys", () => {
    expect(redacted(`a ${key()} b`)).toBe(`a ${REDACTED} b`);
    expect(redacted(`${key()}\n${key("EC ")}`)).toBe(`${REDACTED}\n${REDACTED}`);
  });

  it("takes out a key cut short by the next key's first line, and that key", () => {
    // Encrypted PEM headers are no base64, so only reading up to the next key finds this one.
    const cut = `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0A1B\n\n${BODY}\n`;
    const text = `${cut}${key()} tail`;
    expect(redacted(text)).not.toContain(BODY);
    expect(redacted(text)).not.toContain("DEK-Info");
    expect(redacted(text)).toMatch(/ tail$/);
  });

  it("leaves first lines alone that only text stands between, as grep prints them", () => {
    const grep = ["a.pem:-----BEGIN RSA PRIVATE KEY-----", "b.pem:-----BEGIN RSA PRIVATE KEY-----", ""].join(
      "\n",
    );
    expect(redacted(grep)).toBe(grep);
    const line = JSON.stringify({
      forModel: "id:1:-----BEGIN OPENSSH PRIVATE KEY-----",
      display: "-----BEGIN OPENSSH PRIVATE KEY-----",
    });
    expect(redacted(line)).toBe(line);
  });

  it("takes out an encrypted key cut short, its headers before its base64", () => {
    const cut = `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0A1B\n\n${BODY}`;
    expect(redacted(`${cut}\n`)).toBe(`${REDACTED}\n`);
    expect(redacted(JSON.stringify({ key: cut }))).toBe(`{"key":"${REDACTED}"}`);
  });

  it("reads many encrypted-key header lines that lead to no key in one pass", () => {
    // Where a header's text and its line break could both take the \r, each failed start tried
    // every way of sharing them: 25 lines took 2.5 s, each more doubling it.
    const headers = "-----BEGIN RSA PRIVATE KEY-----\n" + "Proc-Type: 4,ENCRYPTED\r\n".repeat(60);
    expect(redacted(headers)).toBe(headers);
    expect(redacted(`${headers}\n${BODY}`)).toBe(REDACTED);
  });

  it("leaves other PEM blocks and text after the last key alone", () => {
    const certificate = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----";
    expect(redacted(`${certificate}\n${key()}\nafter`)).toBe(`${certificate}\n${REDACTED}\nafter`);
  });

  it("reads four megabytes of first lines without a last one in one pass, not one per line", () => {
    // Read to its end from every first line, four megabytes of them took 21 s.
    const text = "-----BEGIN RSA PRIVATE KEY-----\n".repeat(131_072);
    const result = redactWithPatterns(text);
    // Each line but the last is a key cut short by the next one's first line.
    expect(result.rules.filter((rule) => rule === "private-key")).toHaveLength(131_071);
    expect(result.text.endsWith("-----BEGIN RSA PRIVATE KEY-----\n")).toBe(true);
  });
});
