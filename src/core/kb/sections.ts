/** A run of lines under one heading path: [start, end), 0-based. */
export interface Section {
  headings: string[];
  start: number;
  end: number;
}

export interface SectionTree {
  sections: Section[];
  /** The document's own title (front matter `title:` or first top-level heading), if it has one. */
  title: string | undefined;
}

interface HeadingLine {
  line: number;
  /** The line where the heading's section starts (an RST overline sits above the title). */
  start: number;
  level: number;
  text: string;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const ATX = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const SETEXT_1 = /^\s{0,3}=+\s*$/;
const SETEXT_2 = /^\s{0,3}-+\s*$/;
const RST_ADORNMENT = /^([=\-~^"'`#*+:.])\1{2,}\s*$/;

/** Lines inside fenced code blocks: no heading and no paragraph break counts there. */
export function fencedLines(lines: readonly string[]): boolean[] {
  const fenced: boolean[] = [];
  let open: string | undefined;
  for (const line of lines) {
    const fence = FENCE.exec(line)?.[1];
    if (open === undefined && fence !== undefined) {
      open = fence;
      fenced.push(true);
    } else if (open !== undefined) {
      fenced.push(true);
      if (fence !== undefined && fence[0] === open[0] && fence.length >= open.length) open = undefined;
    } else {
      fenced.push(false);
    }
  }
  return fenced;
}

export function markdownSections(lines: readonly string[]): SectionTree {
  const fenced = fencedLines(lines);
  const frontMatterEnd = frontMatterLength(lines);
  let title = frontMatterTitle(lines, frontMatterEnd);
  const headings: HeadingLine[] = [];
  for (let i = frontMatterEnd; i < lines.length; i++) {
    if (fenced[i] === true) continue;
    const line = lines[i] ?? "";
    const atx = ATX.exec(line);
    if (atx) {
      const text = cleanHeading(atx[2] ?? "");
      if (text) headings.push({ line: i, start: i, level: atx[1]?.length ?? 1, text });
      continue;
    }
    const next = lines[i + 1];
    const previous = i > frontMatterEnd ? lines[i - 1] : "";
    const singleLineParagraph = line.trim() !== "" && (previous ?? "").trim() === "";
    if (next !== undefined && singleLineParagraph && fenced[i + 1] !== true && !/^\s{0,3}[-*+>]/.test(line)) {
      const level = SETEXT_1.test(next) ? 1 : SETEXT_2.test(next) ? 2 : 0;
      if (level > 0) {
        headings.push({ line: i, start: i, level, text: cleanHeading(line) });
        i++;
      }
    }
  }
  title ??= headings.find((heading) => heading.level === 1)?.text;
  return { sections: buildSections(lines, headings, frontMatterEnd), title };
}

export function rstSections(lines: readonly string[]): SectionTree {
  const styles: string[] = [];
  const headings: HeadingLine[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const text = (lines[i] ?? "").trim();
    const under = RST_ADORNMENT.exec(lines[i + 1] ?? "");
    if (!text || RST_ADORNMENT.test(text) || !under) continue;
    const over = i > 0 && (lines[i - 1] ?? "").trim() === (lines[i + 1] ?? "").trim();
    const style = `${under[1] ?? ""}${over ? "o" : ""}`;
    if (!styles.includes(style)) styles.push(style);
    headings.push({ line: i, start: over ? i - 1 : i, level: styles.indexOf(style) + 1, text });
    i++;
  }
  return { sections: buildSections(lines, headings, 0), title: headings[0]?.text };
}

function buildSections(lines: readonly string[], headings: readonly HeadingLine[], from: number): Section[] {
  const sections: Section[] = [];
  const firstStart = headings[0]?.start ?? lines.length;
  if (hasContent(lines, from, firstStart)) sections.push({ headings: [], start: from, end: firstStart });
  const stack: Array<{ level: number; text: string }> = [];
  headings.forEach((heading, index) => {
    while ((stack.at(-1)?.level ?? 0) >= heading.level) stack.pop();
    stack.push({ level: heading.level, text: heading.text });
    const end = headings[index + 1]?.start ?? lines.length;
    sections.push({ headings: stack.map((entry) => entry.text), start: heading.start, end });
  });
  return mergeEmptySections(lines, sections, headings);
}

/** A heading with no text of its own ("# Guide" right before "## Install") joins the next section. */
function mergeEmptySections(
  lines: readonly string[],
  sections: readonly Section[],
  headings: readonly HeadingLine[],
): Section[] {
  const headingLines = new Set(headings.flatMap((h) => (h.start === h.line ? [h.line] : [h.start, h.line])));
  const merged: Section[] = [];
  let carryStart: number | undefined;
  sections.forEach((section, index) => {
    const start = carryStart ?? section.start;
    const isLast = index === sections.length - 1;
    let bodyStart = section.start;
    while (bodyStart < section.end && headingLines.has(bodyStart)) bodyStart++;
    const bodyEmpty = !hasContent(
      lines,
      bodyStart + (isSetextUnderline(lines, bodyStart) ? 1 : 0),
      section.end,
    );
    if (bodyEmpty && !isLast) {
      carryStart = start;
      return;
    }
    carryStart = undefined;
    merged.push({ headings: section.headings, start, end: section.end });
  });
  return merged;
}

function isSetextUnderline(lines: readonly string[], index: number): boolean {
  const line = lines[index] ?? "";
  return SETEXT_1.test(line) || SETEXT_2.test(line) || RST_ADORNMENT.test(line);
}

function hasContent(lines: readonly string[], start: number, end: number): boolean {
  for (let i = start; i < end; i++) if ((lines[i] ?? "").trim() !== "") return true;
  return false;
}

function frontMatterLength(lines: readonly string[]): number {
  if (lines[0]?.trim() !== "---") return 0;
  for (let i = 1; i < Math.min(lines.length, 100); i++) {
    const line = lines[i]?.trim();
    if (line === "---" || line === "...") return i + 1;
  }
  return 0;
}

function frontMatterTitle(lines: readonly string[], end: number): string | undefined {
  for (let i = 1; i < end; i++) {
    const match = /^title:\s*["']?(.*?)["']?\s*$/.exec(lines[i] ?? "");
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/** Heading text without inline markup: links keep their label, emphasis and code marks go. */
function cleanHeading(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`]+/g, "")
    .trim();
}
