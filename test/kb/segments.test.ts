import { readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bucketOf } from "../../src/core/kb/chunk-index.js";
import { openKnowledgeBase } from "../../src/core/kb/index.js";
import { LEGACY_INDEX_FILE_NAME, LOCK_FILE_NAME, MANIFEST_FILE_NAME } from "../../src/core/kb/persistence.js";
import type { KnowledgeBase } from "../../src/core/kb/types.js";
import { FETCH_NOTES, RISK_GUIDE_ZH, STDIO_GUIDE } from "./fixtures.js";
import { makeWorkspace, writeFiles } from "./helpers.js";

/** Enough files that most of the 16 buckets hold some. */
function notes(count: number): Record<string, string> {
  const files: Record<string, string> = {
    "mcp/writing-servers.md": STDIO_GUIDE,
    "risk-tiers.zh.md": RISK_GUIDE_ZH,
    "fetching.txt": FETCH_NOTES,
  };
  for (let i = 0; i < count; i++) {
    files[`notes/note-${i}.md`] =
      `# Note ${i}\n\n## Shelf ${i % 7}\n\nThe archivist filed box ${i} beside crate ${(i * 7) % 13}.\n\n` +
      `## Inventory\n\nLantern oil, rope and ${i % 2 ? "compass" : "sextant"} number ${i}.\n`;
  }
  return files;
}

const QUERIES = [
  "archivist box 12",
  "lantern oil compass",
  "sextant number 3",
  "JSON-RPC standard output",
  "cookie banners",
  "风险等级",
  "只读工具",
  "shelf inventory rope",
  "archivst", // one edit away
  "invent", // the last word as a prefix
];

type Listing = Map<string, number>;

/** Segment and manifest files of the index folder, with their modification times. */
async function listing(indexDir: string): Promise<Listing> {
  const files = new Map<string, number>();
  for (const name of await readdir(indexDir)) {
    files.set(name, (await stat(path.join(indexDir, name))).mtimeMs);
  }
  return files;
}

function segmentsOf(files: Listing): string[] {
  return [...files.keys()].filter((name) => name.endsWith(".kbs")).sort();
}

function results(kb: KnowledgeBase): unknown[] {
  return QUERIES.map((query) => kb.search(query, { k: 6 }));
}

describe("the index in segments", () => {
  it("saving after one file changed rewrites that file's segment and the manifest, nothing else", async () => {
    const { kbDir, indexDir } = await makeWorkspace(notes(60));
    const kb = await openKnowledgeBase({ dir: kbDir, indexDir });
    await kb.refresh();
    const before = await listing(indexDir);
    expect(segmentsOf(before).length).toBeGreaterThan(8);
    await new Promise((resolve) => setTimeout(resolve, 20));

    const edited = "notes/note-5.md";
    await writeFile(path.join(kbDir, edited), "# Note 5\n\nThe zeppelin hangar is empty now.\n");
    expect(await kb.refresh()).toMatchObject({ updated: [edited] });
    const after = await listing(indexDir);

    const bucket = bucketOf(edited);
    const gone = segmentsOf(before).filter((name) => !after.has(name));
    const added = segmentsOf(after).filter((name) => !before.has(name));
    expect(gone).toHaveLength(1);
    expect(added).toHaveLength(1);
    expect(gone[0]).toMatch(new RegExp(`^seg-${bucket}-`));
    expect(added[0]).toMatch(new RegExp(`^seg-${bucket}-`));
    for (const name of segmentsOf(after)) {
      if (name !== added[0]) expect(after.get(name)).toBe(before.get(name));
    }
    expect(after.get(MANIFEST_FILE_NAME)).toBeGreaterThan(before.get(MANIFEST_FILE_NAME) ?? 0);
    expect(after.has(LOCK_FILE_NAME)).toBe(false);

    const reopened = await openKnowledgeBase({ dir: kbDir, indexDir });
    expect(reopened.search("zeppelin hangar")[0]?.path).toBe(edited);
    const stale = reopened.search("archivist box 5", { k: 10 }).filter((hit) => hit.path === edited);
    expect(stale.map((hit) => hit.text).join("")).not.toContain("archivist");
  });

  it("a refresh that changes nothing writes nothing", async () => {
    const { kbDir, indexDir } = await makeWorkspace(notes(10));
    const kb = await openKnowledgeBase({ dir: kbDir, indexDir });
    await kb.refresh();
    const before = await listing(indexDir);
    await kb.refresh();
    await (await openKnowledgeBase({ dir: kbDir, indexDir })).refresh();
    expect(await listing(indexDir)).toEqual(before);
  });

  it("gives the same results as a fresh build after edits, deletes and renames, before and after a reload", async () => {
    const { root, kbDir, indexDir } = await makeWorkspace(notes(40));
    const kb = await openKnowledgeBase({ dir: kbDir, indexDir });
    await kb.refresh();
    await writeFiles(kbDir, {
      "notes/note-3.md": "# Note 3\n\nThe archivist moved box 3 to the lantern room.\n",
      "notes/new-a.md": "# New\n\n## Inventory\n\nA compass, a sextant and rope.\n",
    });
    await kb.refresh();
    await rm(path.join(kbDir, "notes/note-4.md"));
    await rename(path.join(kbDir, "notes/note-7.md"), path.join(kbDir, "moved-note-7.md"));
    await rename(path.join(kbDir, "fetching.txt"), path.join(kbDir, "notes/fetching.txt"));
    await kb.refresh();
    await writeFiles(kbDir, { "notes/new-a.md": "# New\n\nOnly rope now. 只读工具 还在。\n" });
    await rm(path.join(kbDir, "notes/note-9.md"));
    await kb.refresh();

    const fresh = await openKnowledgeBase({ dir: kbDir, indexDir: path.join(root, "fresh-index") });
    await fresh.refresh();
    const expected = results(fresh);
    expect(expected.flat().length).toBeGreaterThan(20);
    expect(results(kb)).toEqual(expected);
    const reloaded = await openKnowledgeBase({ dir: kbDir, indexDir });
    expect(results(reloaded)).toEqual(expected);
    expect(reloaded.stats()).toMatchObject({ files: fresh.stats().files, chunks: fresh.stats().chunks });
  });

  it("still finds Chinese after a reload", async () => {
    const { kbDir, indexDir } = await makeWorkspace(notes(5));
    await (await openKnowledgeBase({ dir: kbDir, indexDir })).refresh();
    const reloaded = await openKnowledgeBase({ dir: kbDir, indexDir });
    const [hit] = reloaded.search("哪些工具可以自动运行？");
    expect(hit?.path).toBe("risk-tiers.zh.md");
    expect(hit?.text).toContain("只读工具");
  });
});

describe("a damaged index on disk", () => {
  const damages: Array<[string, (indexDir: string, segment: string) => Promise<void>]> = [
    [
      "a segment with a flipped byte",
      async (indexDir, segment) => {
        const file = path.join(indexDir, segment);
        const bytes = await readFile(file);
        bytes[Math.floor(bytes.length / 2)] = (bytes[Math.floor(bytes.length / 2)] ?? 0) ^ 0xff;
        await writeFile(file, bytes);
      },
    ],
    [
      "a truncated segment",
      async (indexDir, segment) => {
        const file = path.join(indexDir, segment);
        const bytes = await readFile(file);
        await writeFile(file, bytes.subarray(0, bytes.length - 100));
      },
    ],
    [
      "a segment of another format version",
      async (indexDir, segment) => {
        const file = path.join(indexDir, segment);
        const bytes = await readFile(file);
        bytes.writeUInt32LE(1, 8);
        await writeFile(file, bytes);
      },
    ],
    ["a missing segment", (indexDir, segment) => rm(path.join(indexDir, segment))],
    [
      "a segment swapped for another one",
      async (indexDir, segment) => {
        const other = segmentsOf(await listing(indexDir)).find((name) => name !== segment) ?? segment;
        await writeFile(path.join(indexDir, segment), await readFile(path.join(indexDir, other)));
      },
    ],
    ["a segment that is not one", (indexDir, segment) => writeFile(path.join(indexDir, segment), "hello")],
  ];

  it.each(damages)("rebuilds after %s, with one notice", async (_name, damage) => {
    const { kbDir, indexDir } = await makeWorkspace(notes(20));
    await (await openKnowledgeBase({ dir: kbDir, indexDir })).refresh();
    const [segment] = segmentsOf(await listing(indexDir));
    await damage(indexDir, segment ?? "");
    const warnings: string[] = [];
    const kb = await openKnowledgeBase({ dir: kbDir, indexDir, onWarning: (text) => warnings.push(text) });
    expect(kb.stats()).toMatchObject({ files: 0, updatedAt: undefined });
    expect((await kb.refresh()).added).toHaveLength(23);
    await kb.refresh();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/was unusable \(.+\); it was rebuilt/);
    expect(kb.search("archivist box 12")[0]?.path).toBe("notes/note-12.md");
    const reopened = await openKnowledgeBase({ dir: kbDir, indexDir });
    expect(reopened.stats().files).toBe(23);
  });

  it("replaces an index of format version 1 (kb-index.json) and deletes it", async () => {
    const { kbDir, indexDir } = await makeWorkspace(notes(3));
    await (await openKnowledgeBase({ dir: kbDir, indexDir })).refresh();
    for (const name of await readdir(indexDir)) await rm(path.join(indexDir, name));
    await writeFile(
      path.join(indexDir, LEGACY_INDEX_FILE_NAME),
      JSON.stringify({ format: "mcpterm-kb-index", version: 1, dir: kbDir, state: {} }),
    );
    const warnings: string[] = [];
    const kb = await openKnowledgeBase({ dir: kbDir, indexDir, onWarning: (text) => warnings.push(text) });
    expect(kb.stats().files).toBe(0);
    await kb.refresh();
    expect(warnings).toEqual([expect.stringContaining("kb-index.json is an index of an older format")]);
    const names = await readdir(indexDir);
    expect(names).not.toContain(LEGACY_INDEX_FILE_NAME);
    expect(names).toContain(MANIFEST_FILE_NAME);
    expect((await openKnowledgeBase({ dir: kbDir, indexDir })).stats().files).toBe(6);
  });
});

describe("two writers", () => {
  it("two knowledge bases saving the same index at once leave a whole one, and no lock", async () => {
    const { kbDir, indexDir } = await makeWorkspace(notes(30));
    const first = await openKnowledgeBase({ dir: kbDir, indexDir });
    await first.refresh();
    const second = await openKnowledgeBase({ dir: kbDir, indexDir });
    for (let round = 0; round < 4; round++) {
      await writeFiles(kbDir, {
        [`notes/note-${round}.md`]: `# Note ${round}\n\nRound ${round}: the keeper painted door ${round}.\n`,
        [`notes/note-${round + 10}.md`]: `# Note ${round + 10}\n\nRound ${round}: the tide took pier ${round}.\n`,
      });
      await Promise.all([first.refresh(), second.refresh()]);
    }
    const names = await readdir(indexDir);
    expect(names).not.toContain(LOCK_FILE_NAME);
    expect(names.filter((name) => name.endsWith(".tmp"))).toEqual([]);
    const warnings: string[] = [];
    const reopened = await openKnowledgeBase({
      dir: kbDir,
      indexDir,
      onWarning: (text) => warnings.push(text),
    });
    expect(reopened.stats().files).toBe(33);
    expect(reopened.search("keeper painted door 3")[0]?.path).toBe("notes/note-3.md");
    await reopened.refresh();
    expect(warnings).toEqual([]);
    // Each writer's next save still finds every segment its manifest names.
    await writeFiles(kbDir, { "notes/note-20.md": "# Note 20\n\nA lighthouse.\n" });
    await first.refresh();
    await second.refresh();
    expect((await openKnowledgeBase({ dir: kbDir, indexDir })).search("lighthouse")[0]?.path).toBe(
      "notes/note-20.md",
    );
  });

  it("takes over a lock its writer left behind", async () => {
    const { kbDir, indexDir } = await makeWorkspace(notes(3));
    const kb = await openKnowledgeBase({ dir: kbDir, indexDir });
    await kb.refresh();
    await writeFile(path.join(indexDir, LOCK_FILE_NAME), "999999999 deadbeef\n");
    await writeFiles(kbDir, { "notes/note-1.md": "# Note 1\n\nA lighthouse.\n" });
    await kb.refresh();
    expect(await readdir(indexDir)).not.toContain(LOCK_FILE_NAME);
    expect((await openKnowledgeBase({ dir: kbDir, indexDir })).search("lighthouse")[0]?.path).toBe(
      "notes/note-1.md",
    );
  });
});

describe("files that did not change since they were indexed", () => {
  it("are trusted by size and times once settled, and an edit that keeps size and mtime is still seen", async () => {
    const { kbDir, indexDir } = await makeWorkspace(notes(4));
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of ["notes/note-1.md", "notes/note-2.md", "fetching.txt"]) {
      await utimes(path.join(kbDir, name), hourAgo, hourAgo);
    }
    // The ctime, which no tool can set back, must have settled too (SETTLED_MS).
    await new Promise((resolve) => setTimeout(resolve, 3100));
    const kb = await openKnowledgeBase({ dir: kbDir, indexDir });
    await kb.refresh();
    const saved = await listing(indexDir);
    expect(await kb.refresh()).toMatchObject({ added: [], updated: [], unchanged: 7 });
    expect(await listing(indexDir)).toEqual(saved);

    // Same size, same mtime, other content: the ctime tells.
    const file = path.join(kbDir, "notes/note-1.md");
    const text = await readFile(file, "utf8");
    await writeFile(file, text.replace("archivist", "archivast"));
    await utimes(file, hourAgo, hourAgo);
    expect(await kb.refresh()).toMatchObject({ updated: ["notes/note-1.md"] });
    expect(kb.search("archivast")[0]?.path).toBe("notes/note-1.md");
    // And again at once, as a tool keeping the mtime writes twice within a coarse clock's
    // second: the fresh ctime keeps the file from being trusted by its stat, so it is read.
    await writeFile(file, text.replace("archivist", "archivust"));
    await utimes(file, hourAgo, hourAgo);
    expect(await kb.refresh()).toMatchObject({ updated: ["notes/note-1.md"] });
    expect(kb.search("archivust")[0]?.path).toBe("notes/note-1.md");
    const reopened = await openKnowledgeBase({ dir: kbDir, indexDir });
    expect(await reopened.refresh()).toMatchObject({ updated: [], unchanged: 7 });
  });
});
