/** The most of a server's own message quoted in a sentence of mcpterm's. */
const SERVER_MESSAGE_CHARS = 300;

/**
 * A server's error text as part of one sentence: an HTML error page (a proxy's `<html><body><h1>502
 * Bad Gateway</h1>…`, a framework's page with the traceback) by its title and then the rest of its
 * words, without its tags, scripts and styles; every run of whitespace, line breaks too, as one
 * space; cut to SERVER_MESSAGE_CHARS between words. Undefined when nothing readable is left.
 *
 * Never inside a word: it is redacted after (the session's secrets, the patterns), and a token cut
 * in two matches neither a known value nor a pattern's length, so its start would be shown.
 */
export function readableServerMessage(text: string): string | undefined {
  const html = /^\s*<(?:!doctype|html|head|body|title|h1|p|center)\b/i.test(text);
  const words = html ? pageWords(text) : oneLine(text);
  if (words === "") return undefined;
  if (words.length <= SERVER_MESSAGE_CHARS) return words;
  const cut = words.slice(0, SERVER_MESSAGE_CHARS);
  // The word the limit falls in is left out whole (the last space before it, or all of it).
  const end = words[SERVER_MESSAGE_CHARS] === " " ? cut.length : cut.lastIndexOf(" ");
  return `${cut.slice(0, Math.max(end, 0)).trimEnd()}…`;
}

/**
 * How much of a page is read for its words: far more than a sentence quotes, and a bound on the
 * work (an unclosed `<script` is looked for to the end, once for every one of them).
 */
const PAGE_READ_CHARS = 16_384;

/** A page's title, then its other words where they say more than the title again (nginx's `<h1>`). */
function pageWords(whole: string): string {
  const start = whole.slice(0, PAGE_READ_CHARS);
  // A tag the cut ends inside is no word.
  const open = start.lastIndexOf("<");
  const page = open > start.lastIndexOf(">") ? start.slice(0, open) : start;
  const title = oneLine(/<title[^>]*>([^<]*)<\/title>/i.exec(page)?.[1] ?? "");
  const body = oneLine(page.replace(/<(script|style|title)\b[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " "));
  const rest = title !== "" && body.startsWith(title) ? body.slice(title.length).trim() : body;
  if (title === "") return rest;
  return rest === "" ? title : `${title} — ${rest}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
