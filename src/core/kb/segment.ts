import { crc32 } from "node:zlib";
import { tokenize } from "./tokenizer.js";
import type { Chunk } from "./types.js";

/**
 * One immutable segment of the keyword index: the passages of some files, their texts, and an
 * inverted index over three fields (title, heading path, text) held in typed arrays. A segment is
 * built from chunks or merged from other segments, written once as one binary file, and read
 * back by viewing its bytes (no parsing of terms, postings or texts: those are decoded only
 * when a query or a hit needs them).
 *
 * Binary layout, little-endian:
 *   0  "MCPKBSG1"                 magic
 *   8  u32 format version         INDEX_FORMAT_VERSION (below)
 *   12 u32 crc32 of bytes 16..end
 *   16 u32 length of the JSON header, 20 u32 zero, 24 JSON header (files, counts), padded to 8
 *   then, each padded to 8: lines u32[2n], fieldLengths u32[3n], textOffsets u32[2n+1],
 *   postingStarts u32[3t+1], termOffsets u32[t+1], postingDocs u32[p], postingTfs u16[p],
 *   term bytes (UTF-8, sorted by bytes), text bytes (heading then text of each passage, UTF-8).
 */
export const FIELD_COUNT = 3;
/**
 * Bump whenever the tokenizer, the chunker or the layout of segments or manifest changes: an
 * index written by another version is rebuilt, never trusted. 1 was one JSON document
 * (kb-index.json); 2 is segments plus a manifest; 3 caps the heading and title each passage
 * carries (chunker.ts); 4 indexes and keeps a file's text with its secrets taken out first
 * (knowledge-base.ts), so an index of 3 may hold them and is rebuilt.
 */
export const INDEX_FORMAT_VERSION = 4;
const MAGIC = Buffer.from("MCPKBSG1", "latin1");
const PREAMBLE = 24;
const MAX_TF = 0xffff;

export interface SegmentFile {
  path: string;
  hash: string;
  title: string;
  /** The file's first passage (local document number) and how many it has. */
  first: number;
  count: number;
  /** Size, mtime and ctime when the file was read, once it had stopped changing (see FileStat). */
  stat?: FileStat;
}

/**
 * [size, mtimeMs, ctimeMs] of a file, kept only when its mtime was well before it was read: a
 * refresh that finds the same three skips reading and hashing the file (as git's index does).
 */
export type FileStat = [number, number, number];

export interface SegmentInput {
  path: string;
  hash: string;
  chunks: readonly Chunk[];
  stat?: FileStat | undefined;
}

interface Header {
  files: SegmentFile[];
  docs: number;
  terms: number;
  postings: number;
  termBytes: number;
  textBytes: number;
}

export class SegmentError extends Error {}

export class Segment {
  /** Sum of each field's length over the segment's passages (for BM25's average length). */
  readonly fieldLengthSum: [number, number, number] = [0, 0, 0];
  /** Local document -> index into `files`. */
  readonly fileOf: Uint32Array;
  private termStrings: string[] | undefined;
  private encoded: Buffer | undefined;

  constructor(
    readonly files: readonly SegmentFile[],
    readonly docCount: number,
    /** startLine, endLine of each passage. */
    readonly lines: Uint32Array,
    /** Unique terms in title, heading, text of each passage (as minisearch counts length). */
    readonly fieldLengths: Uint32Array,
    /** Byte offsets of heading i at [2i, 2i+1) and text i at [2i+1, 2i+2) in `textBytes`. */
    readonly textOffsets: Uint32Array,
    readonly termCount: number,
    /** Postings of term t in field f at [3t+f, 3t+f+1). */
    readonly postingStarts: Uint32Array,
    readonly termOffsets: Uint32Array,
    readonly postingDocs: Uint32Array,
    readonly postingTfs: Uint16Array,
    readonly termBytes: Buffer,
    readonly textBytes: Buffer,
    encoded?: Buffer,
  ) {
    this.encoded = encoded;
    this.fileOf = new Uint32Array(docCount);
    files.forEach((file, index) => this.fileOf.fill(index, file.first, file.first + file.count));
    for (let doc = 0; doc < docCount; doc++) {
      for (let field = 0; field < FIELD_COUNT; field++) {
        this.fieldLengthSum[field as 0 | 1 | 2] += fieldLengths[doc * FIELD_COUNT + field] ?? 0;
      }
    }
  }

  heading(doc: number): string {
    return this.textBytes.toString("utf8", this.textOffsets[2 * doc], this.textOffsets[2 * doc + 1]);
  }

  text(doc: number): string {
    return this.textBytes.toString("utf8", this.textOffsets[2 * doc + 1], this.textOffsets[2 * doc + 2]);
  }

  chunk(doc: number): Chunk {
    const file = this.files[this.fileOf[doc] ?? 0] as SegmentFile;
    return {
      path: file.path,
      startLine: this.lines[2 * doc] ?? 0,
      endLine: this.lines[2 * doc + 1] ?? 0,
      heading: this.heading(doc),
      title: file.title,
      text: this.text(doc),
    };
  }

  path(doc: number): string {
    return this.files[this.fileOf[doc] ?? 0]?.path ?? "";
  }

  /** Compares term `index` with `key` by bytes: negative when the term sorts first. */
  private compareTerm(index: number, key: Buffer, keyEnd: number = key.length): number {
    return this.termBytes.compare(key, 0, keyEnd, this.termOffsets[index], this.termOffsets[index + 1]);
  }

  /** The first term not sorting before `key`. */
  private lowerBound(key: Buffer): number {
    let low = 0;
    let high = this.termCount;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compareTerm(middle, key) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The index of `key` (UTF-8 bytes of a term), or -1. */
  find(key: Buffer): number {
    const index = this.lowerBound(key);
    return index < this.termCount && this.compareTerm(index, key) === 0 ? index : -1;
  }

  /** The indexes [from, to) of the terms starting with `key`. */
  prefixRange(key: Buffer): [number, number] {
    const from = this.lowerBound(key);
    let to = from;
    while (to < this.termCount) {
      const start = this.termOffsets[to] ?? 0;
      const end = this.termOffsets[to + 1] ?? 0;
      if (
        end - start < key.length ||
        this.termBytes.compare(key, 0, key.length, start, start + key.length) !== 0
      ) {
        break;
      }
      to++;
    }
    return [from, to];
  }

  term(index: number): string {
    return this.termBytes.toString("utf8", this.termOffsets[index], this.termOffsets[index + 1]);
  }

  /** Every term, decoded on first use (only typo matching needs them). */
  terms(): readonly string[] {
    if (!this.termStrings) {
      this.termStrings = Array.from({ length: this.termCount }, (_, index) => this.term(index));
    }
    return this.termStrings;
  }

  /** The same passages and postings under another file table (a file's stat changed). */
  withFiles(files: readonly SegmentFile[]): Segment {
    return new Segment(
      files,
      this.docCount,
      this.lines,
      this.fieldLengths,
      this.textOffsets,
      this.termCount,
      this.postingStarts,
      this.termOffsets,
      this.postingDocs,
      this.postingTfs,
      this.termBytes,
      this.textBytes,
    );
  }

  /** The bytes of this segment as written to disk (made once). */
  encode(): Buffer {
    this.encoded ??= encodeSegment(this);
    return this.encoded;
  }
}

/** The title plus folder and file names ("guides/mcp-servers.md" -> "guides mcp servers"). */
export function titleField(filePath: string, title: string): string {
  const pathWords = filePath.replace(/\.[^./]+$/, "").replace(/[/\\_.-]+/g, " ");
  return pathWords.endsWith(title) ? pathWords : `${title} ${pathWords}`;
}

/** Tokenizes and inverts the chunks of these files, in order, into a new segment. */
export function buildSegment(inputs: readonly SegmentInput[]): Segment {
  const files: SegmentFile[] = [];
  const lines: number[] = [];
  const fieldLengths: number[] = [];
  const texts: string[] = [];
  /** term -> per field, interleaved (doc, tf) pairs. */
  const postings = new Map<string, [number[], number[], number[]]>();
  let doc = 0;
  const add = (terms: readonly string[], field: number, into: number): number => {
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, count] of counts) {
      let lists = postings.get(term);
      if (!lists) {
        lists = [[], [], []];
        postings.set(term, lists);
      }
      lists[field]?.push(into, Math.min(count, MAX_TF));
    }
    return counts.size;
  };
  for (const input of inputs) {
    const title = input.chunks[0]?.title ?? "";
    const titleTerms = tokenize(titleField(input.path, title));
    files.push({
      path: input.path,
      hash: input.hash,
      title,
      first: doc,
      count: input.chunks.length,
      ...(input.stat ? { stat: input.stat } : {}),
    });
    for (const chunk of input.chunks) {
      lines.push(chunk.startLine, chunk.endLine);
      fieldLengths.push(
        add(titleTerms, 0, doc),
        add(tokenize(chunk.heading), 1, doc),
        add(tokenize(chunk.text), 2, doc),
      );
      texts.push(chunk.heading, chunk.text);
      doc++;
    }
  }
  const sorted = [...postings.keys()].map((term) => ({ term, bytes: Buffer.from(term, "utf8") }));
  sorted.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  let postingCount = 0;
  for (const lists of postings.values()) for (const list of lists) postingCount += list.length / 2;
  const postingStarts = new Uint32Array(sorted.length * FIELD_COUNT + 1);
  const postingDocs = new Uint32Array(postingCount);
  const postingTfs = new Uint16Array(postingCount);
  const termOffsets = new Uint32Array(sorted.length + 1);
  let at = 0;
  let termAt = 0;
  sorted.forEach(({ term, bytes }, t) => {
    termOffsets[t] = termAt;
    termAt += bytes.length;
    const lists = postings.get(term) as [number[], number[], number[]];
    for (let field = 0; field < FIELD_COUNT; field++) {
      postingStarts[t * FIELD_COUNT + field] = at;
      const list = lists[field] as number[];
      for (let i = 0; i < list.length; i += 2) {
        postingDocs[at] = list[i] ?? 0;
        postingTfs[at] = list[i + 1] ?? 0;
        at++;
      }
    }
  });
  termOffsets[sorted.length] = termAt;
  postingStarts[sorted.length * FIELD_COUNT] = at;
  const termBytes = Buffer.concat(
    sorted.map((entry) => entry.bytes),
    termAt,
  );
  const textOffsets = new Uint32Array(texts.length + 1);
  let textAt = 0;
  texts.forEach((text, i) => {
    textOffsets[i] = textAt;
    textAt += Buffer.byteLength(text, "utf8");
  });
  textOffsets[texts.length] = textAt;
  const textBytes = Buffer.from(texts.join(""), "utf8");
  return new Segment(
    files,
    doc,
    Uint32Array.from(lines),
    Uint32Array.from(fieldLengths),
    textOffsets,
    sorted.length,
    postingStarts,
    termOffsets,
    postingDocs,
    postingTfs,
    termBytes,
    textBytes,
  );
}

/**
 * A new segment of the files of `parts` that `keep` accepts, in order, postings merged term by
 * term (nothing is tokenized again). Undefined when no file is left.
 */
export function mergeSegments(
  parts: ReadonlyArray<{ segment: Segment; keep: (file: SegmentFile) => boolean }>,
): Segment | undefined {
  const files: SegmentFile[] = [];
  const remaps: Int32Array[] = [];
  let docs = 0;
  let textBytesTotal = 0;
  for (const { segment, keep } of parts) {
    const remap = new Int32Array(segment.docCount).fill(-1);
    for (const file of segment.files) {
      if (!keep(file)) continue;
      files.push({ ...file, first: docs });
      for (let i = 0; i < file.count; i++) remap[file.first + i] = docs++;
      textBytesTotal +=
        (segment.textOffsets[2 * (file.first + file.count)] ?? 0) -
        (segment.textOffsets[2 * file.first] ?? 0);
    }
    remaps.push(remap);
  }
  if (files.length === 0) return undefined;

  const lines = new Uint32Array(2 * docs);
  const fieldLengths = new Uint32Array(FIELD_COUNT * docs);
  const textOffsets = new Uint32Array(2 * docs + 1);
  const textBytes = Buffer.allocUnsafe(textBytesTotal);
  let textAt = 0;
  parts.forEach(({ segment }, p) => {
    const remap = remaps[p] as Int32Array;
    for (let doc = 0; doc < segment.docCount; doc++) {
      const to = remap[doc] ?? -1;
      if (to < 0) continue;
      lines[2 * to] = segment.lines[2 * doc] ?? 0;
      lines[2 * to + 1] = segment.lines[2 * doc + 1] ?? 0;
      for (let f = 0; f < FIELD_COUNT; f++) {
        fieldLengths[FIELD_COUNT * to + f] = segment.fieldLengths[FIELD_COUNT * doc + f] ?? 0;
      }
      const start = segment.textOffsets[2 * doc] ?? 0;
      const middle = segment.textOffsets[2 * doc + 1] ?? 0;
      const end = segment.textOffsets[2 * doc + 2] ?? 0;
      textOffsets[2 * to] = textAt;
      textOffsets[2 * to + 1] = textAt + (middle - start);
      segment.textBytes.copy(textBytes, textAt, start, end);
      textAt += end - start;
    }
  });
  textOffsets[2 * docs] = textAt;

  // A k-way merge of the sorted term lists (k is 2 in practice: what is kept, what is new). It
  // runs once per distinct term of a bucket (thousands) on every refresh that changed the bucket,
  // so it allocates nothing per term: terms are compared and copied by their byte ranges.
  const segments = parts.map(({ segment }) => segment);
  const heads = new Int32Array(parts.length);
  const from = new Int32Array(parts.length);
  let postingsTotal = 0;
  let termBytesTotal = 0;
  for (const segment of segments) {
    postingsTotal += segment.postingDocs.length;
    termBytesTotal += segment.termBytes.length;
  }
  const docsOut = new Uint32Array(postingsTotal);
  const tfsOut = new Uint16Array(postingsTotal);
  const termBytesOut = Buffer.allocUnsafe(termBytesTotal);
  const termOffsetList: number[] = [0];
  const startList: number[] = [];
  let at = 0;
  let termAt = 0;
  for (;;) {
    let best = -1;
    for (let p = 0; p < segments.length; p++) {
      const head = heads[p] ?? 0;
      if (head >= (segments[p] as Segment).termCount) continue;
      if (
        best < 0 ||
        compareTerms(segments[p] as Segment, head, segments[best] as Segment, heads[best] ?? 0) < 0
      )
        best = p;
    }
    if (best < 0) break;
    const bestSegment = segments[best] as Segment;
    const bestHead = heads[best] ?? 0;
    for (let p = 0; p < segments.length; p++) {
      const segment = segments[p] as Segment;
      const head = heads[p] ?? 0;
      if (
        head < segment.termCount &&
        (p === best || compareTerms(segment, head, bestSegment, bestHead) === 0)
      ) {
        from[p] = head;
        heads[p] = head + 1;
      } else from[p] = -1;
    }
    const termStart = at;
    for (let f = 0; f < FIELD_COUNT; f++) {
      startList.push(at);
      for (let p = 0; p < segments.length; p++) {
        const t = from[p] ?? -1;
        if (t < 0) continue;
        const segment = segments[p] as Segment;
        const remap = remaps[p] as Int32Array;
        const end = segment.postingStarts[t * FIELD_COUNT + f + 1] ?? 0;
        for (let i = segment.postingStarts[t * FIELD_COUNT + f] ?? 0; i < end; i++) {
          const doc = remap[segment.postingDocs[i] ?? 0] ?? -1;
          if (doc < 0) continue;
          docsOut[at] = doc;
          tfsOut[at] = segment.postingTfs[i] ?? 0;
          at++;
        }
      }
    }
    if (at === termStart) {
      // Every passage holding it was dropped.
      startList.length -= FIELD_COUNT;
      continue;
    }
    const keyStart = bestSegment.termOffsets[bestHead] ?? 0;
    const keyEnd = bestSegment.termOffsets[bestHead + 1] ?? 0;
    termAt += bestSegment.termBytes.copy(termBytesOut, termAt, keyStart, keyEnd);
    termOffsetList.push(termAt);
  }
  const termCount = termOffsetList.length - 1;
  startList.push(at);
  return new Segment(
    files,
    docs,
    lines,
    fieldLengths,
    textOffsets,
    termCount,
    Uint32Array.from(startList),
    Uint32Array.from(termOffsetList),
    docsOut.slice(0, at),
    tfsOut.slice(0, at),
    Buffer.from(termBytesOut.subarray(0, termAt)),
    textBytes,
  );
}

/** How term `a` of segment `left` sorts against term `b` of `right`, byte by byte (Buffer.compare's order). */
function compareTerms(left: Segment, a: number, right: Segment, b: number): number {
  const leftBytes = left.termBytes;
  const rightBytes = right.termBytes;
  let i = left.termOffsets[a] ?? 0;
  const leftEnd = left.termOffsets[a + 1] ?? 0;
  let j = right.termOffsets[b] ?? 0;
  const rightEnd = right.termOffsets[b + 1] ?? 0;
  for (; i < leftEnd && j < rightEnd; i++, j++) {
    const difference = (leftBytes[i] ?? 0) - (rightBytes[j] ?? 0);
    if (difference !== 0) return difference;
  }
  return leftEnd - i - (rightEnd - j);
}

function pad8(value: number): number {
  return (value + 7) & ~7;
}

interface Layout {
  header: Buffer;
  offsets: number[];
  total: number;
}

const SECTION_SIZES = (h: Header): number[] => [
  8 * h.docs, // lines u32[2n]
  12 * h.docs, // fieldLengths u32[3n]
  4 * (2 * h.docs + 1), // textOffsets
  4 * (FIELD_COUNT * h.terms + 1), // postingStarts
  4 * (h.terms + 1), // termOffsets
  4 * h.postings, // postingDocs
  2 * h.postings, // postingTfs
  h.termBytes,
  h.textBytes,
];

function layout(header: Header): Layout {
  const json = Buffer.from(JSON.stringify(header), "utf8");
  let at = pad8(PREAMBLE + json.length);
  const offsets: number[] = [];
  for (const size of SECTION_SIZES(header)) {
    offsets.push(at);
    at = pad8(at + size);
  }
  return { header: json, offsets, total: at };
}

function encodeSegment(segment: Segment): Buffer {
  const header: Header = {
    files: [...segment.files],
    docs: segment.docCount,
    terms: segment.termCount,
    postings: segment.postingDocs.length,
    termBytes: segment.termBytes.length,
    textBytes: segment.textBytes.length,
  };
  const { header: json, offsets, total } = layout(header);
  const out = Buffer.alloc(total);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(INDEX_FORMAT_VERSION, 8);
  out.writeUInt32LE(json.length, 16);
  json.copy(out, PREAMBLE);
  const sections: ArrayBufferView[] = [
    segment.lines,
    segment.fieldLengths,
    segment.textOffsets,
    segment.postingStarts,
    segment.termOffsets,
    segment.postingDocs,
    segment.postingTfs,
    segment.termBytes,
    segment.textBytes,
  ];
  sections.forEach((section, i) => {
    out.set(new Uint8Array(section.buffer, section.byteOffset, section.byteLength), offsets[i]);
  });
  out.writeUInt32LE(crc32(out.subarray(16)), 12);
  return out;
}

/**
 * Reads a segment's bytes. Throws SegmentError for anything that is not a whole, intact segment
 * of this format version: wrong magic, version or checksum, a size that does not match, offsets
 * out of order or out of range. Typed arrays view the bytes where they are.
 */
export function decodeSegment(input: Buffer): Segment {
  if (input.length < PREAMBLE || !input.subarray(0, 8).equals(MAGIC)) throw new SegmentError("not a segment");
  const version = input.readUInt32LE(8);
  if (version !== INDEX_FORMAT_VERSION)
    throw new SegmentError(`format version ${version}, expected ${INDEX_FORMAT_VERSION}`);
  if (crc32(input.subarray(16)) !== input.readUInt32LE(12)) throw new SegmentError("checksum mismatch");
  // Typed arrays need aligned offsets; a buffer from readFile normally starts a fresh allocation.
  let bytes = input;
  if (bytes.byteOffset % 8 !== 0) {
    const copy = new Uint8Array(bytes.length);
    copy.set(bytes);
    bytes = Buffer.from(copy.buffer, 0, copy.length);
  }
  const jsonLength = bytes.readUInt32LE(16);
  let header: unknown;
  try {
    header = JSON.parse(bytes.toString("utf8", PREAMBLE, PREAMBLE + jsonLength)) as unknown;
  } catch {
    throw new SegmentError("unreadable header");
  }
  checkHeader(header);
  const { offsets, total } = layout(header);
  if (total !== bytes.length) throw new SegmentError(`size ${bytes.length}, expected ${total}`);
  const u32 = (section: number, length: number): Uint32Array =>
    new Uint32Array(bytes.buffer, bytes.byteOffset + (offsets[section] ?? 0), length);
  const n = header.docs;
  const t = header.terms;
  const lines = u32(0, 2 * n);
  const fieldLengths = u32(1, 3 * n);
  const textOffsets = u32(2, 2 * n + 1);
  const postingStarts = u32(3, FIELD_COUNT * t + 1);
  const termOffsets = u32(4, t + 1);
  const postingDocs = u32(5, header.postings);
  const postingTfs = new Uint16Array(bytes.buffer, bytes.byteOffset + (offsets[6] ?? 0), header.postings);
  const termBytes = bytes.subarray(offsets[7], (offsets[7] ?? 0) + header.termBytes);
  const textBytes = bytes.subarray(offsets[8], (offsets[8] ?? 0) + header.textBytes);
  checkOffsets(textOffsets, header.textBytes, "text offsets");
  checkOffsets(termOffsets, header.termBytes, "term offsets");
  checkOffsets(postingStarts, header.postings, "posting offsets");
  for (let i = 0; i < postingDocs.length; i++) {
    if ((postingDocs[i] ?? 0) >= n) throw new SegmentError("posting out of range");
  }
  return new Segment(
    header.files,
    n,
    lines,
    fieldLengths,
    textOffsets,
    t,
    postingStarts,
    termOffsets,
    postingDocs,
    postingTfs,
    termBytes,
    textBytes,
    bytes,
  );
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < 2 ** 32;
}

function checkHeader(parsed: unknown): asserts parsed is Header {
  const header = parsed as Header | null;
  if (typeof header !== "object" || header === null || !Array.isArray(header.files)) {
    throw new SegmentError("unexpected header");
  }
  for (const key of ["docs", "terms", "postings", "termBytes", "textBytes"] as const) {
    if (!isCount(header[key])) throw new SegmentError("unexpected header");
  }
  let next = 0;
  for (const file of header.files as unknown[]) {
    const f = file as Partial<SegmentFile> | null;
    if (
      typeof f?.path !== "string" ||
      typeof f.hash !== "string" ||
      typeof f.title !== "string" ||
      f.first !== next ||
      !isCount(f.count) ||
      (f.stat !== undefined &&
        !(
          Array.isArray(f.stat) &&
          (f.stat as unknown[]).length === 3 &&
          f.stat.every((n) => typeof n === "number")
        ))
    ) {
      throw new SegmentError("unexpected file table");
    }
    next += f.count;
  }
  if (next !== header.docs) throw new SegmentError("file table does not cover the passages");
}

function checkOffsets(offsets: Uint32Array, end: number, what: string): void {
  let previous = 0;
  for (let i = 0; i < offsets.length; i++) {
    const value = offsets[i] ?? 0;
    if (value < previous) throw new SegmentError(`${what} out of order`);
    previous = value;
  }
  if (offsets[0] !== 0 || previous !== end) throw new SegmentError(`${what} out of range`);
}
