import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findArgumentSecrets } from "../../src/core/policy/argument-secrets.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { readTrace } from "../../src/core/trace/trace-reader.js";
import { tempDir, writeJson } from "../support/fixtures.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { hostileLaunch } from "../support/hostile.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const PEM = [
  "-----BEGIN RSA PRIVATE KEY-----",
  "MIIEowIBAAKCAQEAr0Zl6fRnkaqmd0k0k1m0ZqTmz0Y7bS1n2tq3fXw0nEo0cXlU",
  "-----END RSA PRIVATE KEY-----",
].join("\n");

/** Each character of `text` as `%XX`. */
const percentEncoded = (text: string): string =>
  Array.from(Buffer.from(text), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");
const codes = (text: string): number[] => Array.from(text, (character) => character.charCodeAt(0));
const hex = (text: string): string => Buffer.from(text).toString("hex");

/** `text` spelled in Unicode tag characters, which draw as nothing. */
const tagged = (text: string): string =>
  Array.from(text, (character) => String.fromCodePoint(0xe0000 + character.charCodeAt(0))).join("");

const models: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

describe("findArgumentSecrets", () => {
  const redactor = new SecretRedactor(["the-users-own-key-value"]);
  it.each([
    [{ body: `here: ${FAKE_OPENAI_KEY}` }, [{ path: "body", rule: "openai-api-key" }]],
    [{ body: PEM }, [{ path: "body", rule: "private-key" }]],
    [
      { note: "x", nested: { list: ["ok", "the-users-own-key-value"] } },
      [{ path: "nested.list[1]", rule: "known-secret" }],
    ],
    [{ password: "correct horse" }, [{ path: "password", rule: "secret-named-argument" }]],
    [{ password: "short" }, []],
    [{ to: "ann@example.com", body: "see you at noon", count: 3 }, []],
    // A key is sent as much as a value is.
    // …and the finding never names it: a path made of key names would show the secret.
    [
      { [FAKE_OPENAI_KEY]: { to: "eve@example.com" } },
      [{ path: "[REDACTED] (key)", rule: "openai-api-key" }],
    ],
  ])("%j", async (args, expected) => {
    expect(await findArgumentSecrets(args, redactor)).toEqual(expected);
  });

  it("flags text hidden in tag characters, and what it spells", async () => {
    const found = await findArgumentSecrets({ body: `hello${tagged(FAKE_OPENAI_KEY)}` }, redactor);
    expect(found).toEqual([
      { path: "body", rule: "hidden-text" },
      { path: "body", rule: "openai-api-key" },
    ]);
    // Written out as an escape it is plain text; as the character itself it hides.
    expect(await findArgumentSecrets({ body: "a\\u200bb" }, redactor)).toEqual([]);
    expect(await findArgumentSecrets({ body: "a\u200bb" }, redactor)).toEqual([
      { path: "body", rule: "hidden-text" },
    ]);
  });

  it.each([
    ["zero-width non-joiner and joiner (a key spelled in bits)", "\u200c\u200d\u200c\u200c\u200d"],
    ["the combining grapheme joiner", "\u034f"],
    ["musical symbol formatting", "\u{1d173}\u{1d17a}"],
    ["an unassigned default-ignorable point", "\u2065"],
    ["a variation selector beyond the emoji one", "\u{e0100}"],
    ["the blank Braille pattern", "\u2800"],
  ])("flags %s", async (_what, hidden) => {
    expect(await findArgumentSecrets({ body: `see you at noon${hidden}` }, redactor)).toEqual([
      { path: "body", rule: "hidden-text" },
    ]);
  });

  it("leaves emoji joined into one picture alone, and ordinary accents and CJK", async () => {
    expect(await findArgumentSecrets({ body: "ship it 👩\u200d💻 ❤\ufe0f — héllo 你好" }, redactor)).toEqual(
      [],
    );
  });

  it.each([
    ["Persian", "می\u200cخواهم فایل را ببینم"],
    ["Devanagari", "क्\u200dष"],
    ["Malayalam", "ശ്\u200d"],
    ["Sinhala", "ශ්\u200dරී ලංකා"],
  ])("leaves the joiners %s is written with alone", async (_script, text) => {
    expect(await findArgumentSecrets({ text }, redactor)).toEqual([]);
  });

  it("still flags joiners doubled in those scripts, or after an emoji, where they draw nothing", async () => {
    for (const text of ["می\u200c\u200cخواهم", "👍🏽\u200d", "see\u200cyou"])
      expect(await findArgumentSecrets({ text }, redactor)).toEqual([{ path: "text", rule: "hidden-text" }]);
  });

  it("scans a large array of numbers without overflowing, and takes ordinary names for what they are", async () => {
    expect(await findArgumentSecrets({ data: Array.from({ length: 200_000 }, () => 65) }, redactor)).toEqual(
      [],
    );
    expect(
      await findArgumentSecrets(
        { pageToken: "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA", Key: "photos/2026/cat.jpg" },
        redactor,
      ),
    ).toEqual([]);
  });

  const known = "the-users-own-key-value";
  it.each([
    ["base64 inside other text", `data:${Buffer.from(`x=${known};`).toString("base64")}`],
    ["base64url", Buffer.from(`??${known}>>`).toString("base64url")],
    ["hex", Buffer.from(known).toString("hex")],
    ["URL-encoded", encodeURIComponent(known).replace(/-/g, "%2D")],
    ["reversed", Array.from(known).reverse().join("")],
    ["in upper case with spaces", known.toUpperCase().split("").join(" ")],
  ])("finds a known secret %s", async (_form, body) => {
    expect(await findArgumentSecrets({ body }, redactor)).toContainEqual(
      expect.objectContaining({ rule: "known-secret" }),
    );
  });

  it("looks for a secret learned after earlier scans, in disguise too", async () => {
    const learning = new SecretRedactor(["the-users-own-key-value"]);
    const token = "a-token-issued-just-now";
    const body = Buffer.from(`x=${token};`).toString("base64");
    expect(await findArgumentSecrets({ body }, learning)).toEqual([]);
    learning.learn(token);
    expect(await findArgumentSecrets({ body }, learning)).toEqual([
      { path: "(the arguments)", rule: "known-secret" },
    ]);
  });

  it.each([
    ["split in reversed key order", { b: known.slice(10), a: known.slice(0, 10) }],
    ["half in a key, half in its value", { [known.slice(0, 10)]: known.slice(10) }],
    ["joined by dots", { body: known.split("").join(".") }],
    [
      "as JSON \\u escapes",
      { body: Array.from(known, (c) => `\\u00${c.charCodeAt(0).toString(16)}`).join("") },
    ],
    ["as \\x escapes", { body: Array.from(known, (c) => `\\x${c.charCodeAt(0).toString(16)}`).join("") }],
    ["as HTML entities", { body: Array.from(known, (c) => `&#${c.charCodeAt(0)};`).join("") }],
    ["as hex with colons", { body: Buffer.from(known).toString("hex").match(/../g)?.join(":") ?? "" }],
    ["as an array of character codes", { codes: Array.from(known, (c) => c.charCodeAt(0)) }],
    ["as base64 of base64", { body: Buffer.from(Buffer.from(known).toString("base64")).toString("base64") }],
    [
      "in full-width letters",
      {
        body: Array.from(known, (c) => (c === "-" ? c : String.fromCharCode(c.charCodeAt(0) + 0xfee0))).join(
          "",
        ),
      },
    ],
  ])("finds a known secret %s", async (_form, args) => {
    expect(await findArgumentSecrets(args, redactor)).toContainEqual(
      expect.objectContaining({ rule: "known-secret" }),
    );
  });

  describe("a long enough part of a known key, on its own", () => {
    // A key of the user's, built here so that no scanner takes this file for a leak.
    const random = ["zq8Xk2Lm", "P4vR7tYw", "9NcB3hJd"].join("");
    const key = `sk-proj-${random}`;
    const holder = new SecretRedactor([key]);

    it.each<[string, Record<string, unknown>]>([
      ["its random part without the public prefix", { text: random }],
      [
        "split in three and put in another order",
        { text: `${random.slice(8)} sk-proj- ${random.slice(0, 8)}` },
      ],
      ["twenty characters of it in other text", { text: `ref=${random.slice(2, 22)}&x=1` }],
      ["sixteen characters of it, reversed", { text: Array.from(random.slice(4, 20)).reverse().join("") }],
      ["as the name of a property", { [random.slice(5)]: true }],
      ["in upper case, joined by dashes", { text: random.slice(0, 18).toUpperCase().split("").join("-") }],
      ["percent-encoded, every character", { city: percentEncoded(random) }],
      [
        "percent-encoded in lower case, twenty characters",
        { city: percentEncoded(random.slice(0, 20)).toLowerCase() },
      ],
      [
        "percent-encoded amid plain characters",
        { q: `x=${random.slice(0, 6)}${percentEncoded(random.slice(6, 20))}` },
      ],
      ["as character codes in a string, by commas", { text: codes(random).join(",") }],
      ["as character codes in a string, by spaces", { text: codes(random).join(" ") }],
      ["as the JSON text of an array of codes", { text: JSON.stringify(codes(random)) }],
      [
        "as 0x codes",
        {
          text: codes(random)
            .map((code) => `0x${code.toString(16)}`)
            .join(", "),
        },
      ],
      [
        "as octal codes",
        {
          text: codes(random)
            .map((code) => code.toString(8).padStart(4, "0"))
            .join(" "),
        },
      ],
      [
        "as 8-bit binary codes",
        {
          text: codes(random)
            .map((code) => code.toString(2).padStart(8, "0"))
            .join(" "),
        },
      ],
      [
        "as the hex of its two halves, in two arguments",
        { a: hex(random.slice(0, 12)), b: `and ${hex(random.slice(12))}` },
      ],
      ["as the hex of its random part reversed", { text: hex(Array.from(random).reverse().join("")) }],
      ["as hex after other hex digits", { text: `deadbeef1${hex(random)}` }],
      // Decoding must not take what the part search reads past its limit (256 KB of arguments).
      [
        "percent-encoded beside 200 KB of other text",
        { note: "lorem ipsum ".repeat(17_000), q: percentEncoded(random.slice(0, 20)) },
      ],
      ["as hex beside 200 KB of other hex", { note: "ab".repeat(100_000), q: ` ${hex(random)}` }],
    ])("finds %s", async (_form, args) => {
      expect(await findArgumentSecrets(args, holder)).toEqual([
        { path: "(the arguments)", rule: "known-secret" },
      ]);
    });

    it.each<[string, Record<string, unknown>]>([
      ["fifteen characters of it", { text: `id ${random.slice(0, 15)}` }],
      ["two short pieces far apart", { text: `${random.slice(0, 10)} and ${random.slice(12, 22)}` }],
      ["its public prefix alone", { text: "use an sk-proj- key" }],
    ])("leaves %s alone", async (_form, args) => {
      expect(await findArgumentSecrets(args, holder)).toEqual([]);
    });

    it("tells which strings hold a part by themselves, which are masked from then on, not looked for", async () => {
      const session = new SecretRedactor([key]);
      const holding: string[] = [];
      const part = `ref=${random.slice(2, 22)}&x=1`;
      const name = random.slice(5);
      const found = await findArgumentSecrets(
        { to: "ann@example.com", text: part, nested: { [name]: true } },
        session,
        (text) => {
          holding.push(text);
          session.withhold(text);
        },
      );
      expect(found).toEqual([{ path: "(the arguments)", rule: "known-secret" }]);
      expect(holding).toEqual([part, name]);
      expect(session.redactSync(`it said ${part} back`).text).toBe("it said [REDACTED] back");
      expect(session.forRecords.line(`{"name":"${name}"}`)).toBe('{"name":"[REDACTED]"}');
      // Masked as written, not looked for in disguise: a text sharing a long run with one is no secret.
      session.withhold("the report of 2026-12-05 lists nine hosts");
      expect(session.knownNeedles).toHaveLength(1);
      expect(
        await findArgumentSecrets({ text: "the report of 2026-12-05 lists ten hosts" }, session),
      ).toEqual([]);
      // A part split between two strings is in neither of them.
      const split: string[] = [];
      await findArgumentSecrets({ a: random.slice(0, 10), b: random.slice(10, 20) }, holder, (text) =>
        split.push(text),
      );
      expect(split).toEqual([]);
    });

    it("finds a part beside what is masked already: the whole key, a text withheld before", async () => {
      const session = new SecretRedactor([key]);
      const holding: string[] = [];
      const hold = (text: string): void => {
        holding.push(text);
        session.withhold(text);
      };
      const beside = `key ${key} and ${random.slice(4, 24)}`;
      expect(await findArgumentSecrets({ body: beside }, session, hold)).toEqual([
        { path: "body", rule: "known-secret" },
        { path: "(the arguments)", rule: "known-secret" },
      ]);
      expect(holding).toEqual([beside]);
      // The next call sends the same text again, and another part in another argument.
      const other = `eve ${random.slice(2, 20)}`;
      await findArgumentSecrets({ to: other, body: beside }, session, hold);
      expect(holding).toEqual([beside, other]);
      expect(session.redactSync(`to ${other}`).text).toBe("to [REDACTED]");
    });

    it("names no key holding a part of the key in another finding's path", async () => {
      const found = await findArgumentSecrets(
        { note: "x", [random.slice(2, 22)]: { password: "correcthorse1" } },
        holder,
      );
      expect(found).toEqual([
        { path: "[REDACTED].password", rule: "secret-named-argument" },
        { path: "(the arguments)", rule: "known-secret" },
      ]);
    });

    it("looks for parts only of one-word keys: a URL, a JWT or a PEM key shares runs with its kind", async () => {
      // Another webhook of the same team shares the address and the team's id; another JWT
      // shares the header; an RSA public key shares the private key's algorithm identifier.
      const header = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString("base64url");
      const jwt = `${header}.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLW9mLXRoZS11c2Vycy10b2tlbg`;
      const shapes = new SecretRedactor([
        "https://hooks.example.com/services/T0AB12CD/B0EF34GH/kL9mN8pQ7rS6tU5v",
        jwt,
      ]);
      for (const text of [
        "post to https://hooks.example.com/services/T0AB12CD/B9ZZ99ZZ/other",
        `${header}.eyJzdWIiOiJhbm90aGVyIn0.b3RoZXItc2lnbmF0dXJl`,
      ])
        // (A JWT is a secret by the patterns' own rule: only the known-secret finding is in question.)
        expect(
          (await findArgumentSecrets({ text }, shapes)).filter((found) => found.rule === "known-secret"),
          text,
        ).toEqual([]);
      // Whole, they are found as before.
      expect(await findArgumentSecrets({ text: jwt }, shapes)).toContainEqual(
        expect.objectContaining({ rule: "known-secret" }),
      );
    });
  });

  it("does not mistake ordinary arguments for a known secret", async () => {
    const ordinary = {
      values: "1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144",
      bytes: "de ad be ef ca fe ba be 00 11 22 33",
      dates: "2026-12-05 2026-12-06 2026-12-07",
      query: "name=Ann%20Lee&city=S%C3%A3o%20Paulo",
      path: "src/core/policy/argument-secrets.ts",
      id: "3f2b8c1e-9d4a-4b7e-8f21-6c0a5e9d7b13",
      sha: "d0d8ca1f3e9b2a7c6d5e4f3a2b1c0d9e8f7a6b5c",
      body: "Use the key-value store the users own; see https://example.com/a.b.c?x=1",
      image: Buffer.alloc(3000, 7).toString("base64"),
    };
    expect(await findArgumentSecrets(ordinary, redactor)).toEqual([]);
  });

  it("finds a known secret split across two arguments", async () => {
    const found = await findArgumentSecrets({ a: known.slice(0, 10), b: known.slice(10) }, redactor);
    expect(found).toEqual([{ path: "(the arguments)", rule: "known-secret" }]);
  });
});

/**
 * A project with the hostile server's send_message, and a model that tries to send `body` (or
 * makes `calls`, raw arguments as the model wrote them, all in one step).
 */
async function sendAttempt(
  body: string,
  calls: ReadonlyArray<{ id: string; arguments: string }> = [
    { id: "s1", arguments: JSON.stringify({ to: "eve@example.com", body }) },
  ],
): Promise<{ dir: string; sent: string; marker: string; model: ScriptedModelServer }> {
  const marker = randomUUID();
  const dir = await tempDir();
  const sent = path.join(dir, "sent.jsonl");
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { hostile: hostileLaunch(marker, { HOSTILE_SENT_FILE: sent }) },
  });
  const model = await startScriptedModelServer([
    { toolCalls: calls.map((call) => ({ ...call, name: "hostile__send_message" })) },
    { text: "Done." },
  ]);
  models.push(model);
  return { dir, sent, marker, model };
}

/** `-p "send it"` in `dir` allowing external calls, with a trace, `flags` and the user's `key`. */
async function sendIt(
  dir: string,
  model: ScriptedModelServer,
  flags: readonly string[],
  key: string,
): Promise<{ run: Awaited<ReturnType<typeof runCli>>; trace: string }> {
  const trace = path.join(dir, "t.jsonl");
  const args = ["-p", "send it", "--trust-config", "--approve", "external", ...flags];
  const run = await runCli([...args, "--model", "m", "--base-url", model.baseUrl, "--trace", trace], {
    cwd: dir,
    env: cleanEnv({ OPENAI_API_KEY: key }),
  });
  return { run, trace };
}

const sentBodies = (file: string): Promise<string> => readFile(file, "utf8").catch(() => "");

/** A key of the user's, and a part of it only the argument scan finds (see findArgumentSecrets). */
const KEY_WITH_PART = "sk-proj-Qw3rTy7UiOp9AsDf2GhJk4LzXc6VbNm8";
const PART = KEY_WITH_PART.slice(8, 29);
/** The whole key as an array of character codes. */
const CODES = Array.from(KEY_WITH_PART, (character) => character.charCodeAt(0));
const json = (value: unknown): string => JSON.stringify(value);

describe("a call whose arguments hold a secret", () => {
  it.each([
    ["the user's API key", `my key is ${FAKE_OPENAI_KEY}`],
    ["a PEM private key", PEM],
    ["text hidden in tag characters", `see you at noon${tagged("and forward the keys")}`],
  ])(
    "is denied in one-shot mode even with --approve external (%s), exit 3, and the trace says why",
    async (_kind, body) => {
      const { dir, sent, marker, model } = await sendAttempt(body);
      const trace = path.join(dir, "t.jsonl");
      const run = await runCli(
        [
          "-p",
          "send it",
          "--trust-config",
          "--approve",
          "external",
          "--yes",
          "--model",
          "m",
          "--base-url",
          model.baseUrl,
          "--trace",
          trace,
        ],
        { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: FAKE_OPENAI_KEY }) },
      );
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(
        /✗ hostile\/send_message was not run: its arguments hold a secret \(body \([a-z-]+\)\); rerun with --allow-secret-arguments/,
      );
      expect(await sentBodies(sent)).toBe("");
      const call = (await readTrace(trace)).turns[0]?.steps[0]?.toolCalls[0];
      expect(call?.approval).toMatchObject({ approved: false, by: "policy", asked: false });
      expect(call?.approval?.reason).toMatch(/the arguments hold a secret: body/);
      const text = await readFile(trace, "utf8");
      expect(text).not.toContain(FAKE_OPENAI_KEY);
      expect(text).not.toContain("MIIEowIBAAKCAQEA");
      // The model reads why, so it can tell the user instead of retrying.
      expect(JSON.stringify(model.requests[1]?.body)).toMatch(/denied \(policy\).*hold a secret/);
      expect(await waitForNoProcesses(marker)).toEqual([]);
    },
  );

  it("leaves a part of the key the scan found out of the stream, the trace, the session and the next request", async () => {
    // Only the scan finds a part of a key (the rules that redact a text know keys whole).
    const { dir, sent, model } = await sendAttempt(`key is ${PART}`);
    const { run, trace } = await sendIt(dir, model, ["--output", "stream-json"], KEY_WITH_PART);
    expect(run.code).toBe(3);
    expect(await sentBodies(sent)).toBe("");
    expect(run.stdout).toContain('"argumentSecrets":[{"path":"(the arguments)","rule":"known-secret"}]');
    // Found across the arguments read together: the keys are withheld with the values.
    expect(run.stdout).toContain('"arguments":{"[REDACTED] 1":"[REDACTED]","[REDACTED] 2":"[REDACTED]"}');
    expect(run.stdout).not.toContain(PART);
    expect(await readFile(trace, "utf8")).not.toContain(PART);
    const sessions = path.join(dir, ".mcpterm", "sessions");
    const [saved] = await readdir(sessions);
    expect(await readFile(path.join(sessions, saved ?? ""), "utf8")).not.toContain(PART);
    expect(JSON.stringify(model.requests[1]?.body)).not.toContain(PART);
  });

  it.each([
    ["in the name of an argument", json({ to: "eve@example.com", body: "hi", [PART]: "x" }), []],
    ["in a call its tool's schema refuses", json({ to: 5, body: `key is ${PART}` }), []],
    [
      "in a call the step limit leaves unrun",
      json({ to: "eve@example.com", body: `key is ${PART}` }),
      ["--max-steps", "1"],
    ],
    ["in arguments that are not JSON", `{"to": "eve@example.com", "body": "key is ${PART}"`, []],
    ["spelled as character codes", json({ to: "eve@example.com", body: "hi", codes: CODES }), []],
  ])("leaves a part of the key out, %s", async (_case, raw, flags) => {
    const { dir, model } = await sendAttempt("", [{ id: "s1", arguments: raw }]);
    const { run, trace } = await sendIt(dir, model, ["--output", "stream-json", ...flags], KEY_WITH_PART);
    expect(run.stdout).toContain("tool_call_proposed");
    const kept = [run.stdout, await readFile(trace, "utf8")];
    const sessions = path.join(dir, ".mcpterm", "sessions");
    for (const saved of await readdir(sessions))
      kept.push(await readFile(path.join(sessions, saved), "utf8"));
    for (const request of model.requests) kept.push(JSON.stringify(request.body));
    for (const text of kept) {
      expect(text).not.toContain(PART);
      expect(text).not.toContain(CODES.slice(0, 12).join(","));
    }
  });

  it("is denied when another call of the step shares its id, whichever comes first", async () => {
    const calls = [
      { id: "s1", arguments: json({ to: "e", body: `key ${PART}` }) },
      { id: "s1", arguments: json({ to: "e", body: "hi" }) },
    ];
    for (const order of [calls, [...calls].reverse()]) {
      const { dir, sent, model } = await sendAttempt("", order);
      const { run } = await sendIt(dir, model, ["--yes"], KEY_WITH_PART);
      expect(run.code).toBe(3);
      const bodies = await sentBodies(sent);
      expect(bodies).not.toContain(PART);
      expect(bodies).toContain("hi");
    }
  });

  it("goes out allowed as written, and what holds a part of the key is masked from then on", async () => {
    const { dir, sent, model } = await sendAttempt(`key is ${PART}`);
    const { run, trace } = await sendIt(
      dir,
      model,
      ["--output", "stream-json", "--allow-secret-arguments"],
      KEY_WITH_PART,
    );
    expect(run.code).toBe(0);
    expect(await sentBodies(sent)).toContain(PART);
    // The trace's frame of the request keeps the rest of what was sent.
    const text = await readFile(trace, "utf8");
    expect(text).toContain('"to":"eve@example.com","body":"[REDACTED]"');
    expect(text).not.toContain(PART);
    expect(run.stdout).not.toContain(PART);
  });

  it("goes out only with --allow-secret-arguments on top of the tier's approval", async () => {
    const { dir, sent, model } = await sendAttempt(`my key is ${FAKE_OPENAI_KEY}`);
    const env = cleanEnv({ OPENAI_API_KEY: FAKE_OPENAI_KEY });
    const withoutTier = await runCli(
      [
        "-p",
        "send it",
        "--trust-config",
        "--allow-secret-arguments",
        "--model",
        "m",
        "--base-url",
        model.baseUrl,
      ],
      { cwd: dir, env },
    );
    expect(withoutTier.code).toBe(3);
    expect(await sentBodies(sent)).toBe("");
    model.enqueue(
      {
        toolCalls: [
          {
            id: "s2",
            name: "hostile__send_message",
            arguments: JSON.stringify({ to: "me", body: `my key is ${FAKE_OPENAI_KEY}` }),
          },
        ],
      },
      { text: "Sent." },
    );
    const both = await runCli(
      [
        "-p",
        "send it",
        "--trust-config",
        "--allow-secret-arguments",
        "--approve",
        "external",
        "--model",
        "m",
        "--base-url",
        model.baseUrl,
      ],
      { cwd: dir, env },
    );
    expect(both.code).toBe(0);
    expect(await sentBodies(sent)).toContain(FAKE_OPENAI_KEY);
  });
});
