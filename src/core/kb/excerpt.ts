/**
 * A passage's Markdown as clean text for a person to read in an excerpt: heading marks, quote
 * marks, code fences, emphasis and link syntax go; the words stay. The model still gets the
 * Markdown itself (format-sources.ts), where the structure helps it.
 */
export function plainExcerpt(markdown: string): string {
  return markdown
    .split(/\r?\n/)
    .filter((line) => !/^\s*(```|~~~)/.test(line))
    .map((line) =>
      line
        .replace(/^\s{0,3}#{1,6}\s+/, "")
        .replace(/\s+#+\s*$/, "")
        .replace(/^\s*>\s?/, "")
        .replace(/^(\s*)[-*+]\s+/, "$1• ")
        .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
        .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, "$2")
        .replace(/`([^`]*)`/g, "$1"),
    )
    .join("\n")
    .trim();
}
