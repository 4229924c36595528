import { describe, expect, it } from "vitest";
import { ChunkIndex } from "../../src/core/kb/chunk-index.js";

/** Fusion asks for the best few keyword candidates: the same few the whole list starts with. */
describe("ChunkIndex.candidates with a limit", () => {
  it("returns the best `limit` passages past the floor, as the full list begins", () => {
    const index = ChunkIndex.empty();
    for (let file = 0; file < 40; file++) {
      const chunks = Array.from({ length: 5 }, (_, n) => ({
        path: `notes/${file}.md`,
        startLine: n * 3 + 1,
        endLine: n * 3 + 2,
        heading: `Part ${n}`,
        title: `Note ${file}`,
        text: `rollback ${"deploy ".repeat((file * 7 + n) % 11)}steps for service ${file} part ${n}`,
      }));
      index.setFile(`notes/${file}.md`, `hash-${file}`, chunks);
    }
    const all = index.candidates("rollback deploy");
    expect(all.length).toBeGreaterThan(50);
    const best = index.candidates("rollback deploy", undefined, 7);
    expect(best.map((candidate) => [candidate.id, candidate.score])).toEqual(
      all.slice(0, 7).map((candidate) => [candidate.id, candidate.score]),
    );
    expect(index.candidates("rollback deploy", undefined, 1000)).toHaveLength(all.length);
    expect(index.candidates("nothing-like-this", undefined, 5)).toEqual([]);
  });
});
