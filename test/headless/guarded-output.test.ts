import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { guardedOutput } from "../../src/headless/guarded-output.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";

function io(env: NodeJS.ProcessEnv = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const guarded = guardedOutput({
    stdout,
    stderr,
    stdin: new PassThrough(),
    env,
    cwd: "/p",
    signal: new AbortController().signal,
  });
  return { guarded, out: () => out, err: () => err };
}

describe("what a headless command prints goes out through one guard", () => {
  it("strips escapes, controls and hidden characters from every write, strings and buffers alike", () => {
    const { guarded, out, err } = io();
    guarded.stdout.write("title\u001b]0;owned\u0007 \u001b[2Jdone\u202e!\n");
    guarded.stderr.write(Buffer.from("warn\u001b[31m red\u009b2J\tok\n"));
    expect(out()).toBe("title done!\n");
    expect(err()).toBe("warn red\tok\n");
  });

  it("redacts a key from the environment and a key-shaped text a command forgot to", () => {
    const { guarded, out } = io({ SERVICE_TOKEN: "tok-0123456789abcdefghij" });
    guarded.stdout.write(`token tok-0123456789abcdefghij and ${FAKE_OPENAI_KEY}\n`);
    expect(out()).not.toContain("tok-0123456789abcdefghij");
    expect(out()).not.toContain(FAKE_OPENAI_KEY);
    expect(out()).toContain("[REDACTED]");
  });

  it("keeps the stream's own properties and callbacks", async () => {
    const { guarded } = io();
    expect(guarded.stdout.writable).toBe(true);
    await new Promise<void>((resolve) => guarded.stdout.write("x", () => resolve()));
  });
});
