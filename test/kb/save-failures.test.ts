import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openKnowledgeBase } from "../../src/core/kb/index.js";
import { LOCK_FILE_NAME, MANIFEST_FILE_NAME } from "../../src/core/kb/persistence.js";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { makeWorkspace } from "./helpers.js";

/** A save that cannot be made is told once; the index still answers, and nothing is left behind. */
const FILES = {
  "deploy.md": "# Deploy\n\nRoll back with the lantern script.\n",
  "notes.md": "# Notes\n\nThe archivist keeps the rope.\n",
};

async function open(options: { warnings: string[]; lockWaitMs?: number }) {
  const { kbDir, indexDir } = await makeWorkspace(FILES);
  await mkdir(indexDir, { recursive: true });
  const kb = await openKnowledgeBase({
    dir: kbDir,
    indexDir,
    onWarning: (text) => options.warnings.push(text),
    ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }),
  });
  return { kb, indexDir };
}

describe("a save of the index that cannot be made", () => {
  it("with a folder where the manifest goes: told once, searches answer, no segment left behind", async () => {
    const warnings: string[] = [];
    const { kb, indexDir } = await open({ warnings });
    await mkdir(path.join(indexDir, MANIFEST_FILE_NAME));
    const report = await kb.refresh();
    expect(report.notSaved).toBe("kb-manifest.json there is a folder, not a file; remove it");
    expect(warnings).toEqual([
      `The knowledge-base index could not be saved in ${indexDir} (kb-manifest.json there is a folder, not a file; remove it); searches use it from memory, and the next run indexes again.`,
    ]);
    expect(kb.search("lantern")[0]?.path).toBe("deploy.md");
    expect((await readdir(indexDir)).filter((name) => name.endsWith(".kbs"))).toEqual([]);
  });

  it("with a live writer holding the lock: gives this save up after the wait, and leaves the other's lock", async () => {
    const warnings: string[] = [];
    // The wait is cut from 20 s to 1 s here; what is waited for is the same.
    const { kb, indexDir } = await open({ warnings, lockWaitMs: 1000 });
    // This very process stands for another mcpterm that is alive and slow.
    const held = `${process.pid} 0123456789abcdef\n`;
    await writeFile(path.join(indexDir, LOCK_FILE_NAME), held);
    const report = await kb.refresh();
    expect(report.notSaved).toBe(
      `another mcpterm process (pid ${process.pid}) has held its lock for over 1 s`,
    );
    expect(await readFile(path.join(indexDir, LOCK_FILE_NAME), "utf8")).toBe(held);
    expect(kb.search("archivist")[0]?.path).toBe("notes.md");
    expect(warnings).toHaveLength(1);
  });

  it("saves beside a folder named like a segment, and leaves that folder alone", async () => {
    const warnings: string[] = [];
    const { kb, indexDir } = await open({ warnings });
    const planted = path.join(indexDir, "seg-0-0123456789abcdef.kbs");
    await mkdir(planted);
    const report = await kb.refresh();
    expect(report.notSaved).toBeUndefined();
    expect(warnings).toEqual([]);
    expect(await readdir(planted)).toEqual([]);
  });
});

describe("mcpterm kb index when the lock is a folder", () => {
  it("exits 1 with one sentence and still reports what it indexed", async () => {
    const project = await tempDir("mcpterm-kb-lock-");
    await mkdir(path.join(project, "knowledge_base"));
    await writeFile(path.join(project, "knowledge_base", "a.md"), "# A\n\nalpha\n");
    await mkdir(path.join(project, ".mcpterm", "kb", LOCK_FILE_NAME), { recursive: true });
    const run = await runCli(["kb", "index"], { cwd: project, env: cleanEnv() });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `mcpterm: The knowledge-base index could not be saved in ${path.join(project, ".mcpterm", "kb")} (kb.lock there is a folder, not a file; remove it); searches use it from memory, and the next run indexes again.\n`,
    );
    expect(run.stdout).toMatch(/^Indexed 1 files \(1 chunks\)/);
  });
});
