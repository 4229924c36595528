import type { FetchedPage, PageFetcher } from "../core/kb-docs/add-document.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import type { FetchNetwork } from "../servers/fetch/fetch-url.js";

/** How pages are reached: the real network unless a test passes its own (see FetchOptions.network). */
export type PageNetwork = FetchNetwork;

/**
 * Fetches a page for `kb add` the way the fetch server does: every hop through the address
 * guard (never loopback, private or link-local; there is no switch for this one), binary types
 * refused, HTML converted to Markdown.
 */
export function pageFetcher(network?: PageNetwork): PageFetcher {
  return async (url: string): Promise<FetchedPage> => {
    // Loaded at the first page: the HTML to Markdown converter (turndown and a DOM, about 550 KB)
    // would otherwise load with the TUI, which hands this fetcher to /kb add before any is asked for.
    const [{ documentText }, { fetchDocument, FetchFailure }] = await Promise.all([
      import("../servers/fetch/document-text.js"),
      import("../servers/fetch/fetch-url.js"),
    ]);
    try {
      const document = await fetchDocument(url, { allowPrivate: false, ...(network ? { network } : {}) });
      if (document.cut) {
        return {
          ok: false,
          blocked: false,
          reason: `${url} is larger than 5 MB; save the part you need and add the file.`,
        };
      }
      // Kept and later printed or quoted: no terminal controls or hidden text, whatever the type.
      const text = sanitizeForTerminal(documentText(document, false));
      return {
        ok: true,
        finalUrl: document.finalUrl,
        text,
        extension: extensionFor(document.contentType, document.finalUrl),
      };
    } catch (error) {
      if (!(error instanceof FetchFailure)) throw error;
      if (error.blocked) {
        return {
          ok: false,
          blocked: true,
          reason: `Refusing to fetch ${url}: it leads to a loopback, private or link-local address, which kb add never fetches; save the page and add the file instead.`,
        };
      }
      return { ok: false, blocked: false, reason: error.message };
    }
  };
}

/** HTML becomes Markdown; JSON stays JSON; other text keeps the URL's extension when it has a text one. */
function extensionFor(contentType: string, url: string): string {
  const media = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  if (media === "text/html" || media === "application/xhtml+xml" || media === "text/markdown") return ".md";
  if (media === "application/json" || media.endsWith("+json")) return ".json";
  const own = /\.(txt|md|rst|ya?ml|toml|csv|xml)$/i.exec(new URL(url).pathname)?.[0];
  return own?.toLowerCase() ?? ".txt";
}
