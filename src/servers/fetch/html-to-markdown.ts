import TurndownService from "turndown";
import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";

const turndown = new TurndownService({
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  bulletListMarker: "-",
});
// Code, styling and drawings are never content a reader wants; the title is added once, by hand.
const REMOVED_TAGS = new Set(["script", "style", "noscript", "svg", "template", "iframe", "title"]);
// A filter function rather than a tag list: the tag-name type has no "svg" when DOM types are loaded.
turndown.remove((node) => REMOVED_TAGS.has(node.nodeName.toLowerCase()));

/**
 * Whether a link or image target may be kept: http(s), or relative (no scheme). `javascript:`,
 * `data:`, `file:` and the rest are dropped, judged as a browser would after it removes tabs,
 * newlines and controls from the target (so `java\tscript:` is `javascript:`).
 */
function keepsTarget(target: string | null): boolean {
  // eslint-disable-next-line no-control-regex -- a browser ignores these inside a URL's scheme.
  const squeezed = (target ?? "").replace(/[\u0000-\u0020\u007f]/g, "");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(squeezed)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === "http" || scheme === "https";
}
turndown.addRule("unsafeLink", {
  filter: (node) =>
    node.nodeName === "A" && node.hasAttribute("href") && !keepsTarget(node.getAttribute("href")),
  replacement: (content) => content,
});
turndown.addRule("unsafeImage", {
  filter: (node) => node.nodeName === "IMG" && !keepsTarget(node.getAttribute("src")),
  replacement: (_content, node) => node.getAttribute("alt") ?? "",
});

/**
 * The page's main content when it marks one, else its body. Turndown parses the HTML itself and
 * we have no DOM of our own, so this cuts the source from the first opening to the last closing
 * tag. Turndown parses its input as body content, where <head> would leak the title and metadata.
 */
function mainContent(html: string): string {
  for (const tag of ["main", "article", "body"]) {
    const start = new RegExp(`<${tag}[\\s>]`, "i").exec(html)?.index;
    const end = html.toLowerCase().lastIndexOf(`</${tag}>`);
    if (start !== undefined && end > start) return html.slice(start, end + tag.length + 3);
  }
  return html;
}

function pageTitle(html: string): string | undefined {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim();
  return title ? title.replace(/\s+/g, " ") : undefined;
}

/**
 * The page as Markdown. Controls a page could carry into a terminal or hide text with (escape
 * sequences, other C0/C1 controls, BiDi overrides, zero-width characters) are removed from the
 * result and the title, tabs and newlines kept: a knowledge-base document is printed and quoted.
 */
export function htmlToMarkdown(html: string): string {
  const markdown = sanitizeForTerminal(turndown.turndown(mainContent(html))).trim();
  const rawTitle = pageTitle(html);
  const title =
    rawTitle === undefined
      ? undefined
      : sanitizeForTerminal(rawTitle).replace(/\s+/g, " ").trim() || undefined;
  // Keep the title when the main content does not already start with it as a heading.
  return title && !markdown.startsWith(`# ${title}`) ? `# ${title}\n\n${markdown}` : markdown;
}
