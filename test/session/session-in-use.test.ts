import { execFileSync } from "node:child_process";
import { link, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inUseElsewhere, markInUse } from "../../src/core/session/session-in-use.js";
import { tempDir } from "../support/fixtures.js";

/** A session file's marker, planted as a cloned repository may plant one. */
async function planted(make: (marker: string) => Promise<void>): Promise<string> {
  const dir = await tempDir();
  const session = path.join(dir, "20261205-000000-000-abcdef.jsonl");
  await writeFile(session, "{}\n");
  await make(session.replace(/\.jsonl$/, ".open"));
  return session;
}

describe("a session's in-use marker planted by a project", () => {
  it.each([
    ["a named pipe", (marker: string) => Promise.resolve(void execFileSync("mkfifo", [marker]))],
    ["a link to /dev/zero", (marker: string) => symlink("/dev/zero", marker)],
    [
      "a link to a file naming a live pid",
      async (marker: string) => {
        await writeFile(`${marker}.target`, "1\n");
        await symlink(`${marker}.target`, marker);
      },
    ],
    ["a huge file", (marker: string) => writeFile(marker, "1".repeat(5_000_000))],
    ["a file of words", (marker: string) => writeFile(marker, "pid one\n")],
  ])("is not read as holding the session when it is %s, and never waits", async (_kind, make) => {
    const session = await planted(make);
    expect(inUseElsewhere(session)).toBe(false);
  });

  it("holds the session when it is a small file naming a running process", async () => {
    const session = await planted((marker) => writeFile(marker, "1\n"));
    expect(inUseElsewhere(session)).toBe(true);
  });

  it("is not written through: a pipe is left unopened, a hard link's other name untouched", async () => {
    const fifo = await planted((marker) => Promise.resolve(void execFileSync("mkfifo", [marker])));
    markInUse(fifo)();
    const dir = await tempDir();
    const target = path.join(dir, "notes.txt");
    await writeFile(target, "someone's notes\n");
    const linked = await planted((marker) => link(target, marker));
    markInUse(linked)();
    expect(await readFile(target, "utf8")).toBe("someone's notes\n");
  });
});
