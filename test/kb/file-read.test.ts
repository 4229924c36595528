import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readFileBytes } from "../../src/core/kb/file-read.js";
import { tempDir } from "../support/fixtures.js";

describe("readFileBytes", () => {
  it("reads a regular file with its hash", async () => {
    const file = path.join(await tempDir(), "note.md");
    await writeFile(file, "# Note\n");
    const read = await readFileBytes(file);
    expect(read).toMatchObject({ ok: true, hash: expect.stringMatching(/^[0-9a-f]{64}$/) as string });
  });

  it("refuses a named pipe at once (one swapped in after the scan) instead of waiting for a writer", async () => {
    const fifo = path.join(await tempDir(), "note.md");
    execFileSync("mkfifo", [fifo]);
    expect(await readFileBytes(fifo)).toEqual({ ok: false, reason: "unreadable (EFTYPE)" });
  });
});
