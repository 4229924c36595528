import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { link, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { claimInUse, inUseElsewhere, markInUse } from "../../src/core/session/session-in-use.js";
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

  it("holds the session when it names a running mcpterm, not when the pid now runs something else", async () => {
    const mcpterm = await running("cli.js");
    // A program that only names a cli.js among its words (as `git log -- src/cli.js` would).
    const other = await running("build.js", ["--", "src/cli.js"]);
    try {
      expect(inUseElsewhere(await planted((marker) => writeFile(marker, `${mcpterm.pid}\n`)))).toBe(true);
      // A SIGKILL left the marker, and the system gave its pid to another program since.
      expect(inUseElsewhere(await planted((marker) => writeFile(marker, `${other.pid}\n`)))).toBe(false);
    } finally {
      mcpterm.kill();
      other.kill();
    }
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

describe("claiming a session", () => {
  it("marks it as this process's, and lets go of it only while the marker is still its own", async () => {
    const session = await planted(() => Promise.resolve());
    const marker = session.replace(/\.jsonl$/, ".open");
    const claim = claimInUse(session);
    if (!("unmark" in claim)) throw new Error("not claimed");
    expect(await readFile(marker, "utf8")).toBe(`${process.pid}\n`);
    claim.unmark();
    await expect(readFile(marker, "utf8")).rejects.toThrow(/ENOENT/);
    // Taken over by another process meanwhile: its marker stays.
    const again = claimInUse(session);
    await writeFile(marker, "4000000\n");
    if ("unmark" in again) again.unmark();
    expect(await readFile(marker, "utf8")).toBe("4000000\n");
  });

  it("is held while any claim of this process is, by one exit hook however many claims", async () => {
    const session = await planted(() => Promise.resolve());
    const marker = session.replace(/\.jsonl$/, ".open");
    const hooks = process.listenerCount("exit");
    const claims = Array.from({ length: 12 }, () => claimInUse(session));
    expect(process.listenerCount("exit")).toBeLessThanOrEqual(hooks + 1);
    for (const claim of claims.slice(0, 11)) if ("unmark" in claim) claim.unmark();
    expect(await readFile(marker, "utf8")).toBe(`${process.pid}\n`);
    const last = claims[11];
    if (last && "unmark" in last) {
      last.unmark();
      last.unmark();
    }
    await expect(readFile(marker, "utf8")).rejects.toThrow(/ENOENT/);
    expect(process.listenerCount("exit")).toBe(hooks);
  });

  it("is refused while another mcpterm holds it, and takes over a marker whose process is gone", async () => {
    const mcpterm = await running("cli.js");
    try {
      const held = await planted((marker) => writeFile(marker, `${mcpterm.pid}\n`));
      expect(claimInUse(held)).toEqual({ heldBy: mcpterm.pid });
    } finally {
      mcpterm.kill();
    }
    const stale = await planted((marker) => writeFile(marker, "4000000\n"));
    const claim = claimInUse(stale);
    expect("unmark" in claim).toBe(true);
    expect(await readFile(stale.replace(/\.jsonl$/, ".open"), "utf8")).toBe(`${process.pid}\n`);
  });
});

/** A node process running a script of this name, as mcpterm's own runs dist/cli.js; its pid once it runs. */
async function running(name: string, args: string[] = []): Promise<ChildProcess & { pid: number }> {
  const dir = await tempDir();
  const script = path.join(dir, name);
  await writeFile(script, "setInterval(() => {}, 1000);\n");
  const child = spawn(process.execPath, [script, ...args], { stdio: "ignore" });
  await new Promise((resolve, reject) => child.once("spawn", resolve).once("error", reject));
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  return Object.assign(child, { pid: child.pid });
}
