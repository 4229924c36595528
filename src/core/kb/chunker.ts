import path from "node:path";
import type { FileKind } from "./file-kind.js";
import { splitPassages, type PassageOptions } from "./passages.js";
import { fencedLines, markdownSections, rstSections, type Section, type SectionTree } from "./sections.js";
import type { Chunk } from "./types.js";

export interface ChunkSize {
  maxChars: number;
  overlapChars: number;
  minChars: number;
}

/** About a screenful: long enough to answer a question, short enough to show inline and cite. */
export const DEFAULT_CHUNK_SIZE: ChunkSize = { maxChars: 1200, overlapChars: 200, minChars: 240 };

/** A top-level definition in most languages: unindented, starting with a defining keyword. */
const DEFINITION =
  /^(?:export\s+)?(?:default\s+)?(?:pub(?:\([a-z]+\))?\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|class|interface|type|enum|const|let|var|def|fn|func|struct|trait|impl|module|namespace|object|record)\s+([A-Za-z_$][\w$]*)/;

/**
 * Splits one file into chunks. Markdown and reStructuredText follow the heading tree, then
 * bounded passages with a little overlap; code breaks at blank lines and top-level definitions;
 * plain text at paragraphs. Line numbers are 1-based and inclusive.
 */
export function chunkFile(
  relativePath: string,
  text: string,
  kind: FileKind,
  size: ChunkSize = DEFAULT_CHUNK_SIZE,
): Chunk[] {
  const lines = text.split("\n");
  const fallbackTitle = titleFromPath(relativePath);
  switch (kind) {
    case "markdown": {
      const fenced = fencedLines(lines);
      const isBreak = (line: number): boolean => fenced[line] !== true && isBlank(lines, line);
      return chunkSections(relativePath, lines, markdownSections(lines), fallbackTitle, { ...size, isBreak });
    }
    case "rst": {
      const isBreak = (line: number): boolean => isBlank(lines, line);
      return chunkSections(relativePath, lines, rstSections(lines), fallbackTitle, { ...size, isBreak });
    }
    case "code": {
      const options: PassageOptions = {
        ...size,
        overlapChars: 0,
        isBreak: (line) => isBlank(lines, line),
        prefersStart: (line) => DEFINITION.test(lines[line] ?? ""),
      };
      const tree: SectionTree = { sections: [whole(lines)], title: undefined };
      return chunkSections(relativePath, lines, tree, fallbackTitle, options).map((chunk) => ({
        ...chunk,
        heading: firstDefinition(lines, chunk.startLine - 1, chunk.endLine),
      }));
    }
    case "text": {
      const isBreak = (line: number): boolean => isBlank(lines, line);
      const tree: SectionTree = { sections: [whole(lines)], title: undefined };
      return chunkSections(relativePath, lines, tree, fallbackTitle, { ...size, isBreak });
    }
  }
}

function chunkSections(
  relativePath: string,
  lines: readonly string[],
  tree: SectionTree,
  fallbackTitle: string,
  options: PassageOptions,
): Chunk[] {
  const title = label(tree.title ?? fallbackTitle);
  const chunks: Chunk[] = [];
  for (const section of tree.sections) {
    const heading = label(section.headings.join(" > "));
    for (const passage of splitPassages(lines, section.start, section.end, options)) {
      chunks.push({
        path: relativePath,
        startLine: passage.start + 1,
        endLine: passage.end,
        heading,
        title,
        text: passage.text ?? lines.slice(passage.start, passage.end).join("\n"),
      });
    }
  }
  return chunks;
}

/**
 * The longest heading path or title a passage carries. Both are stored and indexed again with
 * every passage under them, so one huge heading (a 500 KB line after `#`) cost its size times
 * the passages: gigabytes of memory for a 2 MB page. The heading's own line stays in the text
 * of the passages it starts, so no word of it is lost to search.
 */
const MAX_LABEL_CHARS = 300;

function label(text: string): string {
  if (text.length <= MAX_LABEL_CHARS) return text;
  // Never half of a surrogate pair.
  const cut = /[\uD800-\uDBFF]/.test(text.charAt(MAX_LABEL_CHARS - 1))
    ? MAX_LABEL_CHARS - 1
    : MAX_LABEL_CHARS;
  return `${text.slice(0, cut).trimEnd()}…`;
}

function whole(lines: readonly string[]): Section {
  return { headings: [], start: 0, end: lines.length };
}

function firstDefinition(lines: readonly string[], start: number, end: number): string {
  for (let i = start; i < end; i++) {
    const name = DEFINITION.exec(lines[i] ?? "")?.[1];
    if (name !== undefined) return name;
  }
  return "";
}

function isBlank(lines: readonly string[], line: number): boolean {
  return (lines[line] ?? "").trim() === "";
}

/** "guides/mcp-servers.md" -> "mcp servers": what a person would call the file. */
function titleFromPath(relativePath: string): string {
  const stem = path.posix.basename(relativePath, path.posix.extname(relativePath));
  return stem.replace(/[-_.]+/g, " ").trim();
}
