import TurndownService from "turndown";

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

export function htmlToMarkdown(html: string): string {
  const markdown = turndown.turndown(mainContent(html)).trim();
  const title = pageTitle(html);
  // Keep the title when the main content does not already start with it as a heading.
  return title && !markdown.startsWith(`# ${title}`) ? `# ${title}\n\n${markdown}` : markdown;
}
