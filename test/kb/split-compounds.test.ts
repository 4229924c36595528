import { describe, expect, it } from "vitest";
import { ChunkIndex } from "../../src/core/kb/chunk-index.js";
import { joinSplitCompounds } from "../../src/core/kb/split-compounds.js";

describe("joinSplitCompounds", () => {
  const indexed = (term: string): boolean => ["rollback", "database", "backup"].includes(term);

  it("joins two neighbours the index holds written together when one matched nothing", () => {
    expect(joinSplitCompounds(["roll", "back", "releas"], (term) => term === "back", indexed)).toEqual([
      "rollback",
      "releas",
    ]);
    expect(joinSplitCompounds(["data", "base"], () => false, indexed)).toEqual(["database"]);
  });

  it("leaves words that all matched, compounds the index lacks, and CJK terms alone", () => {
    expect(joinSplitCompounds(["back", "up"], () => true, indexed)).toBeUndefined();
    expect(joinSplitCompounds(["weather", "back"], () => false, indexed)).toBeUndefined();
    expect(
      joinSplitCompounds(
        ["风险", "险等"],
        () => false,
        () => true,
      ),
    ).toBeUndefined();
    expect(joinSplitCompounds(["roll"], () => false, indexed)).toBeUndefined();
  });
});

describe("a search for a split compound", () => {
  it("finds the passage that writes it as one word, saying which words matched", () => {
    const index = ChunkIndex.empty();
    const chunk = (path: string, text: string) => ({
      path,
      startLine: 1,
      endLine: 2,
      heading: "",
      title: path,
      text,
    });
    index.setFile("deploy.md", "h1", [chunk("deploy.md", "Run the rollback script with the release id.")]);
    index.setFile("notes.md", "h2", [chunk("notes.md", "Come back tomorrow for the notes.")]);
    const [hit] = index.search("how do I roll back");
    expect(hit).toMatchObject({ path: "deploy.md", matched: ["roll back"] });
    // Words that are all in the index keep their own meaning.
    expect(index.search("come back tomorrow")[0]).toMatchObject({ path: "notes.md" });
    expect(index.search("what is the weather today")).toEqual([]);
  });
});
