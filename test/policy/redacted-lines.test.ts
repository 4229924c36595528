import { describe, expect, it } from "vitest";
import {
  checkedLines,
  fullyRedactedPretty,
  redactedLine,
  redactedLines,
  UNCHECKED,
} from "../../src/core/policy/redacted-json.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { FAKE_LINEAR_KEY, FAKE_OPENAI_KEY } from "../support/fake-secrets.js";

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

describe("SecretRedactor's memory of what secretlint found nothing in", () => {
  it("writes a call's records at once: their keys and words hold nothing secretlint reads", () => {
    const records = [
      { type: "approval_decided", callId: "call_1", approved: true, argumentSecrets: [] },
      { type: "tool_call_proposed", call: { description: "Return text holding a secret." } },
    ];
    const { now, checked } = checkedLines(records, new SecretRedactor().forRecords);
    expect(checked).toBeUndefined();
    expect(now[0]).toContain('"argumentSecrets":[]');
  });

  it("asks secretlint about a text once it found nothing in it, and every time it found something", async () => {
    const { forRecords } = new SecretRedactor();
    const plain = "see the dapi section of the docs";
    expect(forRecords.mayFindMore(plain)).toBe(true);
    expect(await forRecords.full(plain)).toBe(plain);
    expect(forRecords.mayFindMore(plain)).toBe(false);
    expect(checkedLines([{ text: plain }], forRecords).checked).toBeUndefined();

    const secret = `key ${FAKE_LINEAR_KEY}`;
    expect(await forRecords.full(secret)).toBe("key [REDACTED]");
    expect(forRecords.mayFindMore(secret)).toBe(true);
    const { now, checked } = checkedLines([{ text: secret }], forRecords);
    expect(now.join("")).not.toContain(FAKE_LINEAR_KEY);
    expect((await checked)?.join("")).toContain("key [REDACTED]");
  });
});

describe("checkedLines on records a server shaped", () => {
  const forty = "Zq8xPw3rK7mW2pQxZq8xPw3rK7mW2pQxZq8xPw3r";

  it("takes out an AWS secret key whose name is the record's key and whose value is its value", async () => {
    const { now, checked } = checkedLines(
      [{ type: "raw_result", result: { env: { AWS_SECRET_ACCESS_KEY: forty } } }],
      new SecretRedactor().forRecords,
    );
    const lines = [...now, ...((await checked) ?? [])].join("\n");
    expect(lines).not.toContain(forty);
    expect(lines).toContain('"AWS_SECRET_ACCESS_KEY":"[REDACTED]"');
  });

  it.each([
    // A sibling the line's second pass cannot redact without breaking the JSON (it is then dropped).
    [
      "a sibling number under a secret's name",
      { database: { password: 12345678 }, aws: { AWS_SECRET_ACCESS_KEY: forty } },
    ],
    [
      "prefixed and suffixed names",
      {
        MY_AWS_SECRET_ACCESS_KEY: forty,
        TF_VAR_aws_secret_access_key: forty,
        AWS_SECRET_ACCESS_KEY_PROD: forty,
      },
    ],
    [
      "other secret names",
      { AWS_SECRET_KEY: forty, DJANGO_SECRET_KEY: forty, RAILS_SECRET_KEY_BASE: forty, dbPassword: forty },
    ],
    ["a value nested under the name", { AWS_SECRET_ACCESS_KEY: { value: forty }, api_key: [forty] }],
    [
      "a name/value pair (Kubernetes, ECS)",
      {
        env: [
          { name: "AWS_SECRET_ACCESS_KEY", value: forty },
          { Name: "DB_PASSWORD", Value: forty },
        ],
      },
    ],
  ])("takes out a value by its secret's name: %s", async (_, result) => {
    const redactor = new SecretRedactor();
    // Twice: the second time, secretlint already found nothing in the names.
    for (let round = 0; round < 2; round += 1) {
      const { now, checked } = checkedLines([{ type: "raw_result", result }], redactor.forRecords);
      expect(now.join("\n")).not.toContain(forty);
      expect((await checked)?.join("\n") ?? "").not.toContain(forty);
    }
    expect(await fullyRedactedPretty(result, redactor.forRecords)).not.toContain(forty);
  });

  it("takes out a private key spread over items where another rule's match breaks the line", async () => {
    const body = "MIIEowIBAAKCAQEAxyz1234567890abcdefABCDEF";
    // The netrc rule's password runs past "password "'s string into the next: read whole, the
    // line is no longer JSON, and the key's redaction must not be dropped with that match.
    const items = [
      "-----BEGIN RSA PRIVATE KEY-----",
      body,
      "-----END RSA PRIVATE KEY-----",
      "machine h login u password ",
      "x",
    ];
    const { now, checked } = checkedLines([{ type: "event", items }], new SecretRedactor().forRecords);
    const lines = [...now, ...((await checked) ?? [])];
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(lines.join("\n")).not.toContain(body);
    expect(lines.join("\n")).toContain("machine h login u password ");
  });

  it("takes a secret out of a key whatever JSON's escapes make of it", async () => {
    const quoted = new SecretRedactor(['known-"secret"-value']);
    const keys = [
      `\n${FAKE_OPENAI_KEY}`,
      "\tAKIAIOSFODNN7EXAMPLE",
      'known-"secret"-value',
      // The URL pattern's match over the line would break its JSON: the second pass is dropped.
      FAKE_OPENAI_KEY,
    ];
    const records = keys.map((key) => ({
      type: "raw_result",
      result: { [key]: 1, u: ["http://u:p", { k: "@" }] },
    }));
    const { now, checked } = checkedLines(records, quoted.forRecords);
    const text = [...now, ...((await checked) ?? [])].join("\n");
    expect(text).not.toContain(FAKE_OPENAI_KEY.slice(8, 24));
    expect(text).not.toContain("AKIAIOSFODNN7EXAMPLE");
    expect(text).not.toContain('secret\\"-value');
    // Each record keeps its entries, the key's under a redacted name.
    for (const line of now)
      expect(Object.values((JSON.parse(line) as { result: object }).result)).toContain(1);
  });

  it("writes a record holding what the full rule set must read with every string left out, until it has", async () => {
    const body = "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB";
    const pem = ["-----BEGIN RSA PRIVATE KEY-----", body, body, "-----END RSA PRIVATE KEY-----"];
    const { now, checked } = checkedLines(
      [{ type: "raw_result", callId: "c1", result: { pem } }],
      redactor.forRecords,
    );
    expect(checked).toBeDefined();
    expect(now.join("\n")).not.toContain(body.slice(0, 20));
    expect(JSON.parse(now[0] ?? "{}")).toMatchObject({ type: "raw_result", callId: UNCHECKED });
    expect((await checked)?.join("\n")).not.toContain(body.slice(0, 20));
  });

  it("keeps what only sounds like a secret: a list of them, a page token, a short word", () => {
    const record = {
      type: "approval_decided",
      argumentSecrets: [{ path: "body", rule: "openai-api-key" }],
      nextPageToken: "abcdefghij",
      auth: "none",
      token_path: "/etc/token",
    };
    const { now, checked } = checkedLines([record], new SecretRedactor().forRecords);
    expect(checked).toBeUndefined();
    expect(JSON.parse(now[0] ?? "")).toEqual(record);
  });

  it("reads a name the same way the hundredth time, and after a server invented thousands", () => {
    const line = (record: object): unknown =>
      JSON.parse(checkedLines([record], new SecretRedactor().forRecords).now[0] ?? "");
    // Values no rule finds: only the names say they are secrets (or, for stripe_key, that they are not).
    const value = "Wq4tRz8pLm2VbX7nKc5H";
    const named = { dbPassword: value, STRIPE_KEY: value, stripe_key: value, nextPageToken: value };
    const read = {
      dbPassword: "[REDACTED]",
      STRIPE_KEY: "[REDACTED]",
      stripe_key: value,
      nextPageToken: value,
    };
    for (let round = 0; round < 100; round += 1) expect(line(named)).toEqual(read);
    // More names than are remembered, so what was remembered is forgotten: each is read again.
    const invented = Object.fromEntries(
      Array.from({ length: 5000 }, (_, index) => [`field_${index}`, "plain"]),
    );
    expect(line({ ...invented, ...named })).toEqual({ ...invented, ...read });
    expect(line({ lateDbPassword: value, late_stripe_key: value })).toEqual({
      lateDbPassword: "[REDACTED]",
      late_stripe_key: value,
    });
    // Names longer than are remembered are read every time.
    const long = `db${"Long".repeat(40)}Password`;
    for (let round = 0; round < 3; round += 1)
      expect(line({ [long]: value })).toEqual({ [long]: "[REDACTED]" });
  });

  it("checks the keys of objects it copies whole: one with a __proto__ key, a class instance", async () => {
    class Entry {
      constructor(readonly fields: Record<string, unknown>) {}
    }
    const parsed = JSON.parse(`{"__proto__": 0, "${FAKE_LINEAR_KEY}": 1}`) as object;
    const records = [
      { type: "raw_result", result: parsed },
      { type: "wire", message: [new Entry({ [FAKE_LINEAR_KEY]: 2 })] },
    ];
    const { now, checked } = checkedLines(records, new SecretRedactor().forRecords);
    expect(now.join("\n")).not.toContain(FAKE_LINEAR_KEY);
    expect(checked).toBeDefined();
    const exact = (await checked)?.join("\n") ?? "";
    expect(exact).not.toContain(FAKE_LINEAR_KEY);
    expect(exact.match(/\[REDACTED\]/g)).toHaveLength(2);
  });
});
