import { lstat, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { InputHistoryFile, LONGEST_KEPT_CHARS } from "../../src/core/session/input-history-file.js";
import { FAKE_LINEAR_KEY } from "../support/fake-secrets.js";
import { tempDir } from "../support/fixtures.js";

describe("the input history file", () => {
  it("keeps what was sent in order, without a secret only the full rule set finds", async () => {
    const cwd = await tempDir("mcpterm-history-");
    const redactor = new SecretRedactor();
    const history = new InputHistoryFile(cwd, async (text) => (await redactor.redact(text)).text);
    history.append(`my key is ${FAKE_LINEAR_KEY}`);
    history.append("a plain question");
    history.append("   ");
    history.append("and the last one");
    await history.settled();
    const text = await readFile(history.file, "utf8");
    expect(text).not.toContain(FAKE_LINEAR_KEY.slice(8));
    expect(history.load()).toEqual(["my key is [REDACTED]", "a plain question", "and the last one"]);
  });

  it("leaves out a pasted document, written now or by an older mcpterm", async () => {
    const cwd = await tempDir("mcpterm-history-");
    const history = new InputHistoryFile(cwd, (text) => Promise.resolve(text));
    const pasted = `summarize this log:\n${"GET /health 200\n".repeat(2_000)}`;
    expect(pasted.length).toBeGreaterThan(LONGEST_KEPT_CHARS);
    history.append("before");
    history.append(pasted);
    history.append("x".repeat(LONGEST_KEPT_CHARS));
    await history.settled();
    expect(history.load()).toEqual(["before", "x".repeat(LONGEST_KEPT_CHARS)]);
    expect((await readFile(history.file, "utf8")).length).toBeLessThan(LONGEST_KEPT_CHARS + 100);
    // A line an older mcpterm wrote, in a file that is still the person's own (0600).
    await writeFile(history.file, `${JSON.stringify(pasted)}\n${JSON.stringify("after")}\n`, { mode: 0o600 });
    expect(history.load()).toEqual(["after"]);
    // The next message written takes it out of the file too.
    history.append("next");
    await history.settled();
    expect(history.load()).toEqual(["after", "next"]);
    expect(await readFile(history.file, "utf8")).toBe('"after"\n"next"\n');
  });

  it("does not write through a link planted where it cuts the file back", async () => {
    const cwd = await tempDir("mcpterm-history-");
    await mkdir(path.join(cwd, ".mcpterm"));
    const victim = path.join(cwd, "victim.txt");
    await writeFile(victim, "precious\n");
    const history = new InputHistoryFile(cwd, (text) => Promise.resolve(text));
    // A long line makes the next message cut the file back, through its temporary name.
    await writeFile(history.file, `${JSON.stringify("x".repeat(LONGEST_KEPT_CHARS + 1))}\n"old"\n`, {
      mode: 0o600,
    });
    await symlink(victim, `${history.file}.${process.pid}.tmp`);
    history.append("new");
    await history.settled();
    expect(await readFile(victim, "utf8")).toBe("precious\n");
    expect((await lstat(history.file)).isSymbolicLink()).toBe(false);
    expect(history.load()).toEqual(["old", "new"]);
  });
});
