import { chmod, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ServerSnapshot } from "../../src/core/mcp/types.js";
import { EMPTY_CATALOG } from "../../src/core/mcp/server-catalog.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { UNCHECKED } from "../../src/core/policy/redacted-json.js";
import { TOO_DEEP } from "../../src/core/trace/preview-part.js";
import { FAKE_LINEAR_KEY } from "../support/fake-secrets.js";
import {
  MAX_UPDATE_RECORDS,
  TraceRecorder,
  type TraceRecorderOptions,
} from "../../src/core/trace/trace-recorder.js";
import { MCPTERM_VERSION } from "../../src/core/version.js";
import { tempDir } from "../support/fixtures.js";
import { FAKE_SECRET } from "./support.js";

async function open(overrides: Partial<TraceRecorderOptions> = {}): Promise<TraceRecorder> {
  const dir = await tempDir();
  const redactor = new SecretRedactor(['known-secret-value"with\\quotes']);
  return TraceRecorder.open({
    dir: path.join(dir, "traces"),
    redaction: redactor.forRecords,
    model: "m",
    servers: ["a", "b"],
    cwd: dir,
    ...overrides,
  });
}

async function records(recorder: TraceRecorder): Promise<Array<Record<string, unknown>>> {
  // Records are written at the end of the event-loop turn that made them (setImmediate): let that
  // turn end first, since readFile reads on the thread pool, beside the main thread.
  await new Promise((resolve) => setImmediate(resolve));
  const text = await readFile(recorder.file, "utf8");
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const LINEAR_KEY = FAKE_LINEAR_KEY;

const frame = (n: number) => ({
  server: "a",
  direction: "send" as const,
  at: n,
  message: { jsonrpc: "2.0", id: n, method: "ping" },
});

const snapshot = (name: string): ServerSnapshot => ({
  catalog: EMPTY_CATALOG,
  capabilities: undefined,
  name,
  status: "connected",
  transport: "stdio",
  pid: undefined,
  url: undefined,
  error: undefined,
  tools: [],
  refusedTools: [],
  serverInfo: undefined,
  era: undefined,
  protocolVersion: undefined,
  instructions: undefined,
  initializeMs: undefined,
});

describe("TraceRecorder", () => {
  it("starts a session file named by a sortable id with a session_start record", async () => {
    const recorder = await open({ now: () => new Date("2025-03-04T05:06:07.089Z"), cwd: "/project" });
    expect(path.basename(recorder.file)).toMatch(/^20250304-050607-089-[0-9a-f]{6}\.jsonl$/);
    expect(recorder.sessionId).toBe(path.basename(recorder.file, ".jsonl"));
    expect((await records(recorder))[0]).toEqual({
      type: "session_start",
      sessionId: recorder.sessionId,
      version: MCPTERM_VERSION,
      model: "m",
      servers: ["a", "b"],
      cwd: "/project",
      ts: Date.parse("2025-03-04T05:06:07.089Z"),
    });
    recorder.close();
  });

  it("writes a record once the turn that made it ends, long before close", async () => {
    const recorder = await open();
    recorder.write({ type: "warning", message: "one" });
    expect((await records(recorder)).map((record) => record.type)).toEqual(["session_start", "warning"]);
    recorder.close();
    expect((await records(recorder)).at(-1)?.type).toBe("session_end");
  });

  it("appends to an explicit file", async () => {
    const file = path.join(await tempDir(), "nested", "t.jsonl");
    const first = await open({ file });
    first.close();
    const second = await open({ file });
    second.close();
    expect(second.file).toBe(file);
    expect((await records(second)).map((record) => record.type)).toEqual([
      "session_start",
      "session_end",
      "session_start",
      "session_end",
    ]);
  });

  it("keeps the trace to the user alone (0600), also a --trace file that others could read before", async () => {
    const dir = await tempDir();
    const fresh = await open({ file: path.join(dir, "new.jsonl") });
    fresh.close();
    expect((await stat(fresh.file)).mode & 0o777).toBe(0o600);
    const shared = path.join(dir, "shared.jsonl");
    await writeFile(shared, "");
    await chmod(shared, 0o644);
    const reused = await open({ file: shared });
    reused.close();
    expect((await stat(shared)).mode & 0o777).toBe(0o600);
  });

  it("redacts secrets in its own records (raw results, frames, server states), including ones JSON escapes and key/value pairs", async () => {
    const recorder = await open();
    recorder.rawResult("c1", { content: [{ type: "text", text: 'known-secret-value"with\\quotes' }] });
    recorder.wire({ ...frame(1), message: { params: { password: "hunter2-hunter2" } } });
    recorder.servers([{ ...snapshot("a"), status: "failed", error: `exited; stderr: ${FAKE_SECRET}` }]);
    // "secret" is a word secretlint's preset looks for: that turn waits on the full rule set.
    await recorder.settled();
    recorder.close();
    const text = await readFile(recorder.file, "utf8");
    expect(text).not.toContain(FAKE_SECRET);
    expect(text).not.toContain("known-secret-value");
    expect(text).not.toContain("hunter2-hunter2");
    expect(text.match(/\[REDACTED\]/g)).toHaveLength(3);
    expect((await records(recorder)).every((record) => typeof record.ts === "number")).toBe(true);
  });

  it("writes what would drive a terminal or hide text as \\u escapes, so cat and tail -f show it harmlessly", async () => {
    const recorder = await open();
    // A C1 escape (U+009B, CSI in one character), DEL, a BiDi override and a zero-width space.
    const hostile = "red \u009b31m text\u007f, \u202eevil\u200b";
    recorder.write({ type: "warning", message: hostile });
    recorder.write({ type: "warning", message: "plain" });
    const written = await records(recorder);
    const text = await readFile(recorder.file, "utf8");
    expect(text).not.toMatch(/[\u007f-\u009f\u202e\u200b]/);
    expect(text).toContain("red \\u009b31m text\\u007f, \\u202eevil\\u200b");
    // It reads back as it was made.
    expect(written.map((record) => record.message)).toContain(hostile);
    recorder.close();
  });

  it("keeps at most wireLimit frames and notes once that the bound was hit", async () => {
    const recorder = await open({ wireLimit: 2 });
    for (let n = 1; n <= 5; n += 1) recorder.wire(frame(n));
    recorder.close();
    expect((await records(recorder)).map((record) => record.type)).toEqual([
      "session_start",
      "wire",
      "wire",
      "wire_truncated",
      "session_end",
    ]);
  });

  it("keeps a bounded number of update records per server, and says how many it left out", async () => {
    const recorder = await open();
    // A server that floods resources/updated, and a quiet one whose updates are all kept.
    for (let n = 0; n < MAX_UPDATE_RECORDS + 300; n += 1)
      recorder.subscription({ kind: "updated", server: "a", uri: "note://flood" });
    for (let n = 0; n < 3; n += 1)
      recorder.subscription({ kind: "updated", server: "b", uri: "note://calm" });
    recorder.subscription({
      kind: "closed",
      server: "a",
      subject: "note://flood",
      why: "graceful",
      relisten: false,
    });
    recorder.close();
    const written = await records(recorder);
    const updates = (server: string) =>
      written.filter((record) => record.kind === "updated" && record.server === server).length;
    expect(updates("a")).toBe(MAX_UPDATE_RECORDS);
    expect(updates("b")).toBe(3);
    // Other subscription records are never left out.
    expect(written.filter((record) => record.kind === "closed")).toHaveLength(1);
    expect(written.filter((record) => record.kind === "updates_left_out")).toEqual([
      expect.objectContaining({ type: "subscription", server: "a", count: 300, kept: MAX_UPDATE_RECORDS }),
    ]);
  });

  it("turns wire capture off with wireLimit 0", async () => {
    const recorder = await open({ wireLimit: 0 });
    recorder.wire(frame(1));
    recorder.close();
    expect((await records(recorder)).map((record) => record.type)).toEqual(["session_start", "session_end"]);
  });

  it("keeps a preview of a frame or raw result that is too large", async () => {
    const recorder = await open({ maxRecordChars: 100 });
    recorder.rawResult("c1", { content: [{ type: "text", text: "y".repeat(500) }] });
    recorder.close();
    const raw = (await records(recorder))[1];
    expect(raw).toMatchObject({ type: "raw_result", callId: "c1" });
    expect(raw?.chars).toBeGreaterThan(500);
    expect(raw?.preview).toHaveLength(100);
    expect(raw?.result).toBeUndefined();
  });

  it("redacts a preview before it is cut, as the strings and names it was made of", async () => {
    const known = 'known-secret-value"with\\quotes';
    const big = { content: [{ type: "text" as const, text: "y ".repeat(400) }] };
    const results = {
      escaped: { structuredContent: { said: known }, ...big },
      named: { structuredContent: { MY_AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMIK7MDENGbPxRfiCY" }, ...big },
      fullRulesOnly: { structuredContent: { linear: LINEAR_KEY }, ...big },
    };
    const recorder = await open({ maxRecordChars: 700 });
    for (const [callId, result] of Object.entries(results)) recorder.rawResult(callId, result);
    await recorder.settled();
    recorder.close();
    const text = await readFile(recorder.file, "utf8");
    expect(text).not.toContain("known-secret-value");
    expect(text).not.toContain("wJalrXUtnFEMIK7MDENGbPxRfiCY");
    expect(text).not.toContain(LINEAR_KEY.slice(8, 20));
    const previews = (await records(recorder)).filter((record) => typeof record.preview === "string");
    expect(previews.map((record) => record.callId)).toEqual(Object.keys(results));
    // Only the secret went: the rest of the result is there to read.
    for (const { preview } of previews) expect(preview).toContain("y y y");
  });

  it("reads a secret whole before a preview cuts it, wherever it sits", async () => {
    const message = { note: "x", key: LINEAR_KEY, rest: "y ".repeat(400) };
    const cut = JSON.stringify(message).indexOf(LINEAR_KEY) + 20;
    const afterRun = { run: `${"/".repeat(9000)}${LINEAR_KEY}`, rest: "y ".repeat(400) };
    const afterNewline = {
      content: [{ type: "text" as const, text: `one a line:\n${LINEAR_KEY}\n${"x".repeat(900)}` }],
    };
    const recorder = await open({ maxRecordChars: cut });
    recorder.wire({ ...frame(1), message });
    const long = await open({ maxRecordChars: 9020 });
    long.wire({ ...frame(2), message: afterRun });
    long.rawResult("c1", afterNewline);
    for (const each of [recorder, long]) {
      await each.settled();
      each.close();
    }
    const text = `${await readFile(recorder.file, "utf8")}${await readFile(long.file, "utf8")}`;
    expect(text).not.toContain(LINEAR_KEY.slice(0, 16));
    const wire = (await records(recorder)).find((record) => record.type === "wire");
    expect(wire?.preview).toBe(JSON.stringify({ ...message, key: "[REDACTED]" }).slice(0, cut));
  });

  it("shows no part of a secret wherever the part a preview reaches ends, redaction moving it or not", async () => {
    // open()'s known secret; each sweep moves where the part a preview reaches is cut past it.
    const known = 'known-secret-value"with\\quotes';
    const pad = "y ".repeat(3000);
    const recorder = await open({ maxRecordChars: 2000 });
    for (let count = 4950; count < 5100; count += 1) {
      // Numbers: each costs two characters of JSON, so the cut moves over the secret.
      recorder.rawResult(`zeros-${count}`, {
        content: [],
        structuredContent: { zeros: Array(count).fill(0), known, pad },
      });
      // A long value under a secret's name becomes [REDACTED]: what came after it moves up.
      recorder.rawResult(`named-${count}`, {
        content: [],
        structuredContent: { password: "p".repeat(count * 2), text: `${"x".repeat(20)}${known}`, pad },
      });
      // A name/value pair whose name the part may leave out.
      recorder.rawResult(`pair-${count}`, {
        content: [],
        structuredContent: {
          zeros: Array(count).fill(0),
          env: [{ value: "hunter2-prod-db-pass", name: "DB_PASSWORD" }],
          pad,
        },
      });
    }
    await recorder.settled();
    recorder.close();
    const text = await readFile(recorder.file, "utf8");
    expect(text).not.toContain("known-secret");
    expect(text).not.toContain("hunter2");
    const previews = (await records(recorder)).filter((record) => typeof record.preview === "string");
    expect(previews).toHaveLength(3 * 150);
    // A preview ends where the part it was made of was cut, less 8,192 characters, so those whose
    // redaction took out little are nearly as long as maxRecordChars; the long password's is not.
    const shown = (prefix: string): number[] =>
      previews
        .filter((record) => String(record.callId).startsWith(prefix))
        .map((record) => String(record.preview).length);
    for (const prefix of ["zeros-", "pair-"]) expect(Math.min(...shown(prefix))).toBeGreaterThan(1900);
  });

  it("keeps on recording past a value nested deeper than its walks follow", async () => {
    let deep: unknown = "bottom";
    // Deeper than any stack Node is started with: JSON.stringify and the walks give up on it.
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    const recorder = await open({ maxRecordChars: 1000 });
    recorder.rawResult("large", { content: [], structuredContent: { deep, rest: "y ".repeat(600) } });
    recorder.rawResult("small", { content: [], structuredContent: { deep } });
    recorder.write({ type: "tool_call_proposed", call: { arguments: { deep } } });
    await recorder.settled();
    recorder.write({ type: "turn_end" });
    recorder.close();
    const written = await records(recorder);
    expect(written.map((record) => record.type)).toEqual([
      "session_start",
      "raw_result",
      "raw_result",
      "tool_call_proposed",
      "turn_end",
      "session_end",
    ]);
    // Each is kept down to the depth the trace follows, and says what lay deeper was left out.
    for (const record of written.slice(1, 4)) expect(JSON.stringify(record)).toContain(TOO_DEEP);
  });

  it("ignores records after close", async () => {
    const recorder = await open();
    recorder.close();
    recorder.write({ type: "warning", message: "late" });
    recorder.close();
    expect((await records(recorder)).map((record) => record.type)).toEqual(["session_start", "session_end"]);
  });

  it("takes out a secret only the full rule set knows, in frames and in the session's events alike", async () => {
    const recorder = await open();
    recorder.write({ type: "tool_call_proposed", call: { arguments: { token: `is ${LINEAR_KEY}` } } });
    recorder.wire({ ...frame(1), message: { result: { content: [{ type: "text", text: LINEAR_KEY }] } } });
    recorder.write({ type: "turn_end" });
    await recorder.settled();
    recorder.close();
    const text = await readFile(recorder.file, "utf8");
    expect(text).not.toContain(LINEAR_KEY.slice(8));
    expect(text).not.toContain(UNCHECKED);
    // Written in the order made, the turn after the checked one waiting behind it.
    expect((await records(recorder)).map((record) => record.type)).toEqual([
      "session_start",
      "tool_call_proposed",
      "wire",
      "turn_end",
      "session_end",
    ]);
  });

  it("takes such a secret out of a raw result, which reaches it as the server sent it", async () => {
    const recorder = await open();
    recorder.rawResult("c1", { content: [{ type: "text", text: `key ${LINEAR_KEY}` }] });
    await recorder.settled();
    recorder.close();
    const text = await readFile(recorder.file, "utf8");
    expect(text).toContain('"type":"raw_result"');
    expect(text).not.toContain(LINEAR_KEY.slice(8));
    expect(text).not.toContain(UNCHECKED);
  });

  it("takes such a secret out of a key as out of a value, keeping every entry", async () => {
    const recorder = await open();
    const webhook = "https://hooks.slack.com/services/T0ABCDEFG/B0ABCDEFG/abcdefghijklmnopqrstuvwx";
    recorder.write({ type: "tool_call_proposed", call: { arguments: { [LINEAR_KEY]: "x" } } });
    recorder.rawResult("c1", {
      content: [],
      structuredContent: { [LINEAR_KEY]: 1, nested: { [webhook]: true }, [`${LINEAR_KEY}2`]: 2 },
    });
    await recorder.settled();
    recorder.close();
    const text = await readFile(recorder.file, "utf8");
    expect(text).not.toContain(LINEAR_KEY.slice(8));
    expect(text).not.toContain("hooks.slack.com/services/T0ABCDEFG/B0ABCDEFG/abcdefghijklmnopqrstuvwx");
    const raw = (await records(recorder)).find((record) => record.type === "raw_result") as {
      result: { structuredContent: Record<string, unknown> };
    };
    // Two keys that redact alike are both kept.
    expect(Object.values(raw.result.structuredContent)).toEqual(expect.arrayContaining([1, 2]));
    expect(Object.keys(raw.result.structuredContent)).toHaveLength(3);
  });

  it("closed before the full rule set has read a string, leaves that string out rather than write it unchecked", async () => {
    const recorder = await open();
    recorder.write({ type: "warning", message: `token ${LINEAR_KEY}` });
    recorder.write({ type: "warning", message: "plain words" });
    recorder.close();
    const text = await readFile(recorder.file, "utf8");
    expect(text).not.toContain(LINEAR_KEY.slice(8));
    expect(text).toContain(`"message":"${UNCHECKED}"`);
    expect(text).toContain('"message":"plain words"');
  });
});
