import { describe, expect, it } from "vitest";
import { chunkFile } from "../../src/core/kb/chunker.js";
import { buildSegment, mergeSegments, type Segment, type SegmentInput } from "../../src/core/kb/segment.js";
import { FETCH_NOTES, RISK_GUIDE_ZH, STDIO_GUIDE } from "./fixtures.js";

function input(path: string, text: string): SegmentInput {
  return { path, hash: `hash-of-${path}`, chunks: chunkFile(path, text, "markdown") };
}

/** Files whose terms overlap in part: shared words, words of one file alone, words that sort first and last. */
const FILES = [
  input("guide.md", STDIO_GUIDE),
  input("risk.zh.md", RISK_GUIDE_ZH),
  input("fetching.md", FETCH_NOTES),
  ...Array.from({ length: 6 }, (_, i) =>
    input(
      `note-${i}.md`,
      `# Note ${i}\n\nThe archivist filed box ${i} beside crate ${(i * 7) % 13}: aardvark${i} and zzyzx${i}.\n\n## Rope\n\nRope and lantern oil number ${i}.\n`,
    ),
  ),
];

/** Everything a segment holds, as plain values. */
function contents(segment: Segment | undefined): unknown {
  if (!segment) return undefined;
  return {
    files: segment.files,
    docs: segment.docCount,
    terms: Array.from({ length: segment.termCount }, (_, t) =>
      segment.termBytes.toString("utf8", segment.termOffsets[t], segment.termOffsets[t + 1]),
    ),
    postingStarts: [...segment.postingStarts],
    postingDocs: [...segment.postingDocs],
    postingTfs: [...segment.postingTfs],
    lines: [...segment.lines],
    fieldLengths: [...segment.fieldLengths],
    textOffsets: [...segment.textOffsets],
    text: segment.textBytes.toString("utf8"),
  };
}

describe("mergeSegments", () => {
  it.each([
    ["keeps everything", [0, 1, 2, 3], [4, 5, 6, 7, 8], [0, 1, 2, 3], [4, 5, 6, 7, 8]],
    ["drops a file from the first part", [0, 1, 2, 3], [4, 5], [0, 2, 3], [4, 5]],
    ["drops the files holding the first and last terms", [3, 4, 5, 6], [7, 8, 0], [4, 6], [8, 0]],
    ["keeps one part only", [0, 1], [2, 3], [0, 1], []],
    ["keeps a file of the second part only", [0, 1], [2, 3], [], [3]],
  ])("%s: the same segment as building the files kept", (_what, first, second, keptFirst, keptSecond) => {
    const pick = (indexes: readonly number[]): SegmentInput[] =>
      indexes.map((index) => FILES[index] as SegmentInput);
    const kept = (indexes: readonly number[]) => {
      const paths = new Set(pick(indexes).map((file) => file.path));
      return (file: { path: string }): boolean => paths.has(file.path);
    };
    const merged = mergeSegments([
      { segment: buildSegment(pick(first)), keep: kept(keptFirst) },
      { segment: buildSegment(pick(second)), keep: kept(keptSecond) },
    ]);
    expect(contents(merged)).toEqual(contents(buildSegment(pick([...keptFirst, ...keptSecond]))));
  });

  it("merges three parts, and gives nothing when nothing is kept", () => {
    const parts = [
      [0, 1, 2],
      [3, 4, 5],
      [6, 7, 8],
    ].map((indexes) => ({
      segment: buildSegment(indexes.map((index) => FILES[index] as SegmentInput)),
      keep: () => true,
    }));
    expect(contents(mergeSegments(parts))).toEqual(contents(buildSegment(FILES)));
    expect(mergeSegments(parts.map(({ segment }) => ({ segment, keep: () => false })))).toBeUndefined();
  });
});
