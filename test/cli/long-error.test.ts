import { describe, expect, it } from "vitest";
import { capSentence } from "../../src/core/text/cap-sentence.js";
import { tempDir } from "../support/fixtures.js";
import { rawAnswerCommand } from "../support/raw-answer-server.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/** A server whose error message is a whole page (60,000 characters), as a crashing web stack sends one. */
const PAGE = "E".repeat(60_000);
const ERROR_ANSWER = JSON.stringify({ jsonrpc: "2.0", id: "ID", error: { code: -32000, message: PAGE } });

describe("an error sentence quoting a server's page", () => {
  it("is cut to 2,000 characters on one line, saying so; --debug shows it all", async () => {
    const cwd = await tempDir();
    const call = (...flags: string[]) =>
      runCli(["call", "echo", ...flags, "--", ...rawAnswerCommand(ERROR_ANSWER)], { cwd, env: cleanEnv() });
    const plain = await call();
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/^mcpterm: .*E{100}… \(cut at 2000 characters; --debug shows it all\)\n$/);
    expect(plain.stderr.length).toBeLessThan(2_300);
    const debug = await call("--debug");
    expect(debug.stderr).toContain(PAGE);
  });
});

describe("capSentence", () => {
  it("never cuts between the two halves of an emoji", () => {
    const text = `a${"😀".repeat(3000)}`;
    const cut = capSentence(text);
    expect(cut).toMatch(/^a(😀)+… \(cut at 2000 characters\)$/);
    expect(cut).not.toContain("\uFFFD");
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(cut)).toBe(false);
  });
});
