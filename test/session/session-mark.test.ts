import { lstat, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SessionMarks } from "../../src/core/session/session-mark.js";
import { tempDir } from "../support/fixtures.js";

describe("a session's mark", () => {
  it("is made with a key of the user's own, and holds only for the id and folder it was made for", async () => {
    const settings = await tempDir();
    const marks = new SessionMarks(settings);
    const mark = marks.mark("20261204-120000-000-abcdef", "/work/project");
    expect(mark).toMatch(/^[0-9a-f]{64}$/);
    expect(((await lstat(path.join(settings, "session-key"))).mode & 0o777).toString(8)).toBe("600");
    const header = { id: "20261204-120000-000-abcdef", cwd: "/work/project", mark };
    expect(new SessionMarks(settings).holds(header)).toBe(true);
    expect(marks.holds({ ...header, cwd: "/work/other" })).toBe(false);
    expect(marks.holds({ ...header, id: "20261204-120000-000-abcdee" })).toBe(false);
    expect(marks.holds({ ...header, mark: undefined })).toBe(false);
    expect(marks.holds({ ...header, mark: "00".repeat(32) })).toBe(false);
    expect(marks.holds({ ...header, mark: "not hex" })).toBe(false);
    // Another person (another settings folder, another key) cannot make it.
    expect(new SessionMarks(await tempDir()).holds(header)).toBe(false);
  });

  it("never reads a key through a link, and makes none where the folder cannot be written", async () => {
    const settings = await tempDir();
    const planted = path.join(await tempDir(), "key");
    await writeFile(planted, `${"ab".repeat(32)}\n`);
    await symlink(planted, path.join(settings, "session-key"));
    const marks = new SessionMarks(settings);
    expect(marks.mark("20261204-120000-000-abcdef", "/p")).toBeUndefined();
    expect(await readFile(planted, "utf8")).toBe(`${"ab".repeat(32)}\n`);
    // Under a file, where no folder can be made.
    const file = path.join(await tempDir(), "a-file");
    await writeFile(file, "");
    expect(
      new SessionMarks(path.join(file, "mcpterm")).mark("20261204-120000-000-abcdef", "/p"),
    ).toBeUndefined();
  });
});
