import { describe, expect, it } from "vitest";
import { redactedLine, redactedLines } from "../../src/core/policy/redacted-json.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";

const KNOWN = "known-secret-value-1234";
const redactor = new SecretRedactor([KNOWN]);

/** Records as a trace batches them: plain ones, and ones whose secret only the whole line shows. */
const RECORDS: object[] = [
  { type: "wire", message: { jsonrpc: "2.0", id: 1, method: "tools/call" } },
  { type: "raw_result", result: { content: [{ type: "text", text: `token ${KNOWN}` }] } },
  // The key and its value are two strings: only the second pass over the line sees them together.
  { type: "raw_result", result: { password: "correct-horse-battery" } },
  { type: "event", text: "Bearer" },
  { type: "event", text: "abcdefghijklmnopqrstuvwxyz0123456789" },
  { type: "wire", message: { text: "sk-abcdefghijklmnopqrstuvwxyz" } },
  { type: "event", text: "nothing to see" },
];

describe("redactedLines", () => {
  it("gives every record the line redactedLine gives it alone, whatever batch it is in", () => {
    const alone = RECORDS.map((record) => redactedLine(record, redactor.redactText));
    expect(alone.join("\n")).not.toContain(KNOWN);
    expect(alone.join("\n")).not.toContain("correct-horse-battery");
    for (let start = 0; start < RECORDS.length; start += 1)
      for (let end = start; end <= RECORDS.length; end += 1)
        expect(redactedLines(RECORDS.slice(start, end), redactor.redactText)).toEqual(
          alone.slice(start, end),
        );
  });
});

describe("SecretRedactor's memory of clean texts", () => {
  it("forgets a text it found clean once that text holds a secret learned since", () => {
    const local = new SecretRedactor();
    const token = "issued-later-0123456789";
    expect(local.redactText(token)).toBe(token);
    local.learn(token);
    expect(local.redactText(token)).toBe("[REDACTED]");
    expect(local.redactSync(`x ${token}`).text).toBe("x [REDACTED]");
  });
});
