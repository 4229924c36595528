import { lstat, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openKnowledgeBase } from "../../src/core/kb/index.js";
import { LOCK_FILE_NAME, MANIFEST_FILE_NAME } from "../../src/core/kb/persistence.js";
import { makeWorkspace } from "./helpers.js";

const GOOD = "# Good\n\nThe lighthouse keeper logs every ship.\n";

async function refreshed(files: Record<string, string | Buffer>, maxFileBytes?: number) {
  const workspace = await makeWorkspace({ "good.md": GOOD, ...files });
  const kb = await openKnowledgeBase({ dir: workspace.kbDir, indexDir: workspace.indexDir, maxFileBytes });
  return { ...workspace, kb, report: await kb.refresh() };
}

describe("files that cannot be indexed are skipped with a note", () => {
  it("skips binaries by extension and by content", async () => {
    const { report, kb } = await refreshed({
      "logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
      "blob.dat": Buffer.from([0x41, 0x42, 0x00, 0x43, 0x44]),
    });
    expect(report.skipped).toEqual([
      { path: "blob.dat", reason: "binary file" },
      { path: "logo.png", reason: "binary file" },
    ]);
    expect(report.added).toEqual(["good.md"]);
    expect(kb.stats().files).toBe(1);
  });

  it("skips files over the size limit without reading them", async () => {
    const { report } = await refreshed({ "huge.log": "lighthouse ".repeat(2000) }, 1024);
    expect(report.skipped).toHaveLength(1);
    expect(report.skipped[0]?.path).toBe("huge.log");
    expect(report.skipped[0]?.reason).toMatch(/larger than the 1\.0 KB limit/);
  });

  it("skips invalid UTF-8", async () => {
    const { report } = await refreshed({ "latin1.txt": Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    expect(report.skipped).toEqual([{ path: "latin1.txt", reason: "invalid UTF-8" }]);
  });

  it("skips symlink loops and links back to an ancestor folder", async () => {
    const workspace = await makeWorkspace({ "good.md": GOOD, "sub/inner.md": "# Inner\n\nharbour\n" });
    await symlink(workspace.kbDir, path.join(workspace.kbDir, "sub", "back-to-root"));
    await symlink(path.join(workspace.kbDir, "self"), path.join(workspace.kbDir, "self"));
    const kb = await openKnowledgeBase({ dir: workspace.kbDir, indexDir: workspace.indexDir });
    const report = await kb.refresh();
    expect(report.added).toEqual(["good.md", "sub/inner.md"]);
    expect(report.skipped.map((skip) => skip.path)).toEqual(["self", "sub/back-to-root"]);
    expect(report.skipped.every((skip) => skip.reason.startsWith("symlink loop"))).toBe(true);
  });

  it("follows a symlink to a file inside, skips a dangling one and one that leads out of the folder", async () => {
    const workspace = await makeWorkspace({
      "good.md": GOOD,
      "sub/inside.md": "# Inside\n\nThe ferry leaves at noon.\n",
    });
    await writeFile(path.join(workspace.root, "outside.md"), "# Outside\n\nThe launch code is 0000.\n");
    await symlink(path.join(workspace.kbDir, "sub", "inside.md"), path.join(workspace.kbDir, "linked.md"));
    await symlink(path.join(workspace.root, "outside.md"), path.join(workspace.kbDir, "escape.md"));
    await symlink(workspace.root, path.join(workspace.kbDir, "up"));
    await symlink(path.join(workspace.root, "missing.md"), path.join(workspace.kbDir, "dangling.md"));
    const kb = await openKnowledgeBase({ dir: workspace.kbDir, indexDir: workspace.indexDir });
    const report = await kb.refresh();
    expect(report.added).toEqual(["good.md", "linked.md", "sub/inside.md"]);
    expect(report.skipped).toEqual([
      { path: "dangling.md", reason: "unreadable (ENOENT)" },
      { path: "escape.md", reason: "links outside the knowledge folder" },
      { path: "up", reason: "links outside the knowledge folder" },
    ]);
    expect(kb.search("ferry")[0]?.path).toBe("linked.md");
    expect(kb.search("launch code")).toEqual([]);
  });

  it("removes a file from the index once it can no longer be read", async () => {
    const { kb, kbDir } = await refreshed({ "notes.txt": "The harbour master signs the manifest.\n" });
    await writeFile(path.join(kbDir, "notes.txt"), Buffer.from([0x41, 0xc3, 0x28, 0x0a]));
    const report = await kb.refresh();
    expect(report.removed).toEqual(["notes.txt"]);
    expect(report.skipped.map((skip) => skip.path)).toEqual(["notes.txt"]);
    expect(kb.search("harbour master")).toEqual([]);
  });
});

describe("what gets read", () => {
  it("honours .gitignore and .mcptermignore and skips hidden folders and node_modules", async () => {
    const { report } = await refreshed({
      ".gitignore": "drafts/\n*.tmp\n",
      ".mcptermignore": "private.md\n!keep.tmp\n",
      "drafts/wip.md": "# WIP\n",
      "scratch.tmp": "x",
      "keep.tmp": "kept because the second ignore file re-includes it",
      "private.md": "# Private\n",
      ".obsidian/workspace.md": "# hidden\n",
      "node_modules/pkg/README.md": "# dep\n",
      "docs/readme.rst": "Title\n=====\n\nBody text.\n",
    });
    expect(report.added).toEqual(["docs/readme.rst", "good.md", "keep.tmp"]);
    expect(report.skipped).toEqual([]);
  });

  it("never indexes its own index folder, even inside the knowledge base", async () => {
    const workspace = await makeWorkspace({ "good.md": GOOD });
    const indexDir = path.join(workspace.kbDir, "index-here");
    const kb = await openKnowledgeBase({ dir: workspace.kbDir, indexDir });
    await kb.refresh();
    expect(await kb.refresh()).toMatchObject({ added: [], unchanged: 1 });
  });

  it("reads UTF-8 with a BOM, CRLF line ends and UTF-16 with a BOM", async () => {
    const crlf = "# Windows notes\r\n\r\n## Paths\r\n\r\nUse backslashes in cmd.exe paths.\r\n";
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from("# Legacy\n\nThe mainframe batch job.\n", "utf16le"),
    ]);
    const { kb, report } = await refreshed({
      "bom.md": Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(crlf)]),
      "legacy.txt": utf16,
    });
    expect(report.skipped).toEqual([]);
    const [hit] = kb.search("backslashes paths");
    expect(hit).toMatchObject({ path: "bom.md", heading: "Windows notes > Paths", startLine: 1, endLine: 5 });
    expect(hit?.text).toBe("# Windows notes\n\n## Paths\n\nUse backslashes in cmd.exe paths.");
    expect(kb.search("mainframe batch")[0]?.path).toBe("legacy.txt");
  });
});

describe("the index file in a folder a cloned repository filled", () => {
  it("is written as its own files: a symlink planted at the manifest or the lock overwrites nothing", async () => {
    const workspace = await makeWorkspace({ "good.md": GOOD });
    const victim = path.join(workspace.root, "victim.txt");
    await writeFile(victim, "keep me\n");
    await mkdir(workspace.indexDir, { recursive: true });
    const target = path.join(workspace.indexDir, MANIFEST_FILE_NAME);
    await symlink(victim, target);
    await symlink(victim, path.join(workspace.indexDir, LOCK_FILE_NAME));
    const kb = await openKnowledgeBase({ dir: workspace.kbDir, indexDir: workspace.indexDir });
    await kb.refresh();
    expect(await readFile(victim, "utf8")).toBe("keep me\n");
    expect((await lstat(target)).isSymbolicLink()).toBe(false);
    expect(await readFile(target, "utf8")).toContain("mcpterm-kb-manifest");
  });
});
