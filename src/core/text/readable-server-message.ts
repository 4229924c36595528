/** The most of a server's own message quoted in a sentence of mcpterm's. */
const SERVER_MESSAGE_CHARS = 300;

/**
 * A server's error text as part of one sentence: a proxy's HTML error page (`<html><body><h1>502
 * Bad Gateway</h1>…`) by its words, without its tags; every run of whitespace, line breaks too,
 * as one space; cut to SERVER_MESSAGE_CHARS. Undefined when nothing readable is left.
 */
export function readableServerMessage(text: string): string | undefined {
  const html = /^\s*<(?:!doctype|html|head|body|title|h1|p|center)\b/i.test(text);
  const title = html ? /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1] : undefined;
  const words = (
    title ?? (html ? text.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " ") : text)
  )
    .replace(/\s+/g, " ")
    .trim();
  if (words === "") return undefined;
  return words.length > SERVER_MESSAGE_CHARS ? `${words.slice(0, SERVER_MESSAGE_CHARS - 1)}…` : words;
}
