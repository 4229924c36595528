import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openKnowledgeBase } from "../../src/core/kb/index.js";
import { MANIFEST_FILE_NAME } from "../../src/core/kb/persistence.js";
import { CONFIG_SNIPPET, FETCH_NOTES, RISK_GUIDE_ZH, STDIO_GUIDE } from "./fixtures.js";
import { linesOf, makeWorkspace, writeFiles } from "./helpers.js";

const MIXED = {
  "mcp/writing-servers.md": STDIO_GUIDE,
  "risk-tiers.zh.md": RISK_GUIDE_ZH,
  "fetching.txt": FETCH_NOTES,
  "mcp.config.json": CONFIG_SNIPPET,
};

async function openMixed(): Promise<
  Awaited<ReturnType<typeof makeWorkspace>> & { kb: Awaited<ReturnType<typeof openKnowledgeBase>> }
> {
  const workspace = await makeWorkspace(MIXED);
  const kb = await openKnowledgeBase({ dir: workspace.kbDir, indexDir: workspace.indexDir });
  await kb.refresh();
  return { ...workspace, kb };
}

describe("retrieval from a mixed English and Chinese folder", () => {
  it("answers an English question with the passage that answers it", async () => {
    const { kb, kbDir } = await openMixed();
    const [top] = kb.search("Where should my MCP server write its logs?");
    expect(top?.path).toBe("mcp/writing-servers.md");
    expect(top?.heading).toBe("Writing an MCP server > Transport > Logging");
    expect(top?.text).toContain("standard error");
    const source = await readFile(path.join(kbDir, "mcp/writing-servers.md"), "utf8");
    expect(linesOf(source, top?.startLine ?? 0, top?.endLine ?? 0)).toBe(top?.text);
  });

  it("answers a Chinese question with the passage that answers it", async () => {
    const { kb, kbDir } = await openMixed();
    const [top] = kb.search("删除数据的工具需要用户批准吗？");
    expect(top?.path).toBe("risk-tiers.zh.md");
    expect(top?.heading).toBe("风险等级 > 危险操作");
    const source = await readFile(path.join(kbDir, "risk-tiers.zh.md"), "utf8");
    expect(linesOf(source, top?.startLine ?? 0, top?.endLine ?? 0)).toBe(top?.text);
  });

  it("answers a question mixing both languages", async () => {
    const { kb } = await openMixed();
    expect(kb.search("read_only 工具 自动运行")[0]?.heading).toBe("风险等级 > 只读工具");
  });

  it("finds plain text and JSON files too", async () => {
    const { kb } = await openMixed();
    expect(kb.search("cookie banners")[0]?.path).toBe("fetching.txt");
    expect(kb.search("mcpServers filesystem")[0]?.path).toBe("mcp.config.json");
  });

  it("returns nothing for stop words or punctuation only", async () => {
    const { kb } = await openMixed();
    expect(kb.search("what is the")).toEqual([]);
    expect(kb.search("?!... --- ***")).toEqual([]);
    expect(kb.search("   ")).toEqual([]);
    expect(kb.search("是什么？")).toEqual([]);
  });

  it("returns nothing for a question the folder cannot answer", async () => {
    const { kb } = await openMixed();
    expect(kb.search("chocolate cake recipe")).toEqual([]);
  });

  it("tolerates a small typo and an unfinished last word", async () => {
    const { kb } = await openMixed();
    expect(kb.search("sumarizing web pages")[0]?.path).toBe("fetching.txt");
    expect(kb.search("stdio standard outp")[0]?.heading).toBe(
      "Writing an MCP server > Transport > Standard output",
    );
  });

  it("honours k", async () => {
    const { kb } = await openMixed();
    expect(kb.search("server", { k: 1 })).toHaveLength(1);
    expect(kb.search("server", { k: 0 })).toEqual([]);
  });
});

describe("spreading results across files", () => {
  it("does not let one file fill every slot when another file also matches", async () => {
    const sections = Array.from(
      { length: 8 },
      (_, i) => `## Timeout ${i}\n\nThe request timeout for server ${i} is set in mcp.config.json.\n`,
    ).join("\n");
    const workspace = await makeWorkspace({
      "timeouts.md": `# Timeouts\n\n${sections}`,
      "other.md": "# Other\n\nA server that hangs hits its request timeout; raise timeoutMs.\n",
    });
    const kb = await openKnowledgeBase({ dir: workspace.kbDir, indexDir: workspace.indexDir });
    await kb.refresh();
    const hits = kb.search("server request timeout", { k: 4 });
    expect(hits).toHaveLength(4);
    expect(new Set(hits.map((hit) => hit.path))).toEqual(new Set(["timeouts.md", "other.md"]));
    expect(hits.filter((hit) => hit.path === "timeouts.md").length).toBeLessThan(4);
  });

  it("still fills the slots from one file when no other file matches", async () => {
    const sections = Array.from(
      { length: 6 },
      (_, i) => `## Part ${i}\n\nThe gateway port is ${8000 + i}.\n`,
    );
    const workspace = await makeWorkspace({
      "ports.md": `# Ports\n\n${sections.join("\n")}`,
      "x.md": "unrelated",
    });
    const kb = await openKnowledgeBase({ dir: workspace.kbDir, indexDir: workspace.indexDir });
    await kb.refresh();
    expect(kb.search("gateway port", { k: 4 })).toHaveLength(4);
  });
});

describe("persistence and incremental refresh", () => {
  it("indexes every file on the first refresh and nothing on the second", async () => {
    const { kb } = await openMixed();
    const again = await kb.refresh();
    expect(again).toMatchObject({ added: [], updated: [], removed: [], unchanged: 4 });
    expect(kb.stats()).toMatchObject({ files: 4 });
  });

  it("re-indexes only the edited file, and the index on disk follows", async () => {
    const { kb, kbDir, indexDir } = await openMixed();
    await writeFile(path.join(kbDir, "fetching.txt"), `${FETCH_NOTES}\nPrefer the readability extraction.\n`);
    const report = await kb.refresh();
    expect(report).toMatchObject({ added: [], updated: ["fetching.txt"], removed: [], unchanged: 3 });
    expect(kb.search("readability extraction")[0]?.path).toBe("fetching.txt");

    const reopened = await openKnowledgeBase({ dir: kbDir, indexDir });
    expect(reopened.search("readability extraction")[0]?.path).toBe("fetching.txt");
    expect(await reopened.refresh()).toMatchObject({ added: [], updated: [], removed: [], unchanged: 4 });
  });

  it("adds a new file without touching the others", async () => {
    const { kb, kbDir } = await openMixed();
    await writeFiles(kbDir, { "notes/new.md": "# New\n\nThe zeppelin hangar is in hall 7.\n" });
    expect(await kb.refresh()).toMatchObject({ added: ["notes/new.md"], updated: [], unchanged: 4 });
    expect(kb.search("zeppelin hangar")[0]?.path).toBe("notes/new.md");
  });

  it("removes the chunks of a deleted file", async () => {
    const { kb, kbDir, indexDir } = await openMixed();
    const before = kb.stats().chunks;
    await rm(path.join(kbDir, "fetching.txt"));
    expect(await kb.refresh()).toMatchObject({ removed: ["fetching.txt"], unchanged: 3 });
    expect(kb.search("cookie banners")).toEqual([]);
    expect(kb.stats().chunks).toBeLessThan(before);
    const reopened = await openKnowledgeBase({ dir: kbDir, indexDir });
    expect(reopened.search("cookie banners")).toEqual([]);
    expect(reopened.stats().files).toBe(3);
  });

  it("loads the persisted index without a refresh and reports its stats", async () => {
    const { kb, kbDir, indexDir } = await openMixed();
    const reopened = await openKnowledgeBase({ dir: kbDir, indexDir });
    expect(reopened.stats()).toEqual(kb.stats());
    expect(reopened.stats().indexBytes).toBeGreaterThan(0);
    expect(reopened.stats().updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(reopened.search("JSON-RPC standard output")[0]?.path).toBe("mcp/writing-servers.md");
  });

  it.each([
    ["garbage", "{ not json"],
    ["truncated", "TRUNCATE"],
    ["another version", "VERSION"],
    ["wrong layout", JSON.stringify({ format: "mcpterm-kb-manifest", version: 2, segments: 3 })],
  ])("rebuilds after a %s manifest instead of trusting it, and says so once", async (_name, content) => {
    const { kbDir, indexDir } = await openMixed();
    const file = path.join(indexDir, MANIFEST_FILE_NAME);
    const saved = await readFile(file, "utf8");
    const replacement =
      content === "TRUNCATE"
        ? saved.slice(0, saved.length / 2)
        : content === "VERSION"
          ? saved.replace(/"version":\d+/, '"version":999')
          : content;
    await writeFile(file, replacement);
    const warnings: string[] = [];
    const kb = await openKnowledgeBase({ dir: kbDir, indexDir, onWarning: (text) => warnings.push(text) });
    expect(kb.stats()).toMatchObject({ files: 0, chunks: 0, updatedAt: undefined });
    expect((await kb.refresh()).added).toHaveLength(4);
    expect(kb.search("cookie banners")[0]?.path).toBe("fetching.txt");
    await kb.refresh();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/index in .* was unusable \(kb-manifest\.json .*\); it was rebuilt/);
    const rebuilt = await openKnowledgeBase({ dir: kbDir, indexDir });
    expect(rebuilt.stats().files).toBe(4);
  });

  it("does not reuse an index built from another folder", async () => {
    const { indexDir } = await openMixed();
    const other = await makeWorkspace({ "a.md": "# A\n\nalpha\n" });
    const kb = await openKnowledgeBase({ dir: other.kbDir, indexDir });
    expect(kb.stats().files).toBe(0);
  });

  it("serializes concurrent refreshes", async () => {
    const workspace = await makeWorkspace(MIXED);
    const kb = await openKnowledgeBase({ dir: workspace.kbDir, indexDir: workspace.indexDir });
    const [first, second] = await Promise.all([kb.refresh(), kb.refresh()]);
    expect(first.added).toHaveLength(4);
    expect(second).toMatchObject({ added: [], unchanged: 4 });
  });
});

describe("empty and missing folders", () => {
  it("treats a missing folder as an empty knowledge base", async () => {
    const { root } = await makeWorkspace();
    const kb = await openKnowledgeBase({ dir: path.join(root, "nope"), indexDir: path.join(root, "idx") });
    const report = await kb.refresh();
    expect(report).toMatchObject({ added: [], removed: [], unchanged: 0, skipped: [] });
    expect(kb.search("anything")).toEqual([]);
    expect(kb.stats()).toMatchObject({ files: 0, chunks: 0 });
  });

  it("treats an empty folder as an empty knowledge base", async () => {
    const { kbDir, indexDir } = await makeWorkspace();
    const kb = await openKnowledgeBase({ dir: kbDir, indexDir });
    await kb.refresh();
    expect(kb.stats()).toMatchObject({ files: 0, chunks: 0, dir: kbDir });
    expect(kb.search("server")).toEqual([]);
  });

  it("empties the index when every file is deleted", async () => {
    const { kb, kbDir } = await openMixed();
    await rm(kbDir, { recursive: true });
    expect((await kb.refresh()).removed).toHaveLength(4);
    expect(kb.stats()).toMatchObject({ files: 0, chunks: 0 });
  });
});
