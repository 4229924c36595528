/**
 * The most of an error's sentence shown: a server's 500 MB error page is quoted by some messages
 * (the SDK's "Error POSTing to endpoint: <the page>"), and one line of it would flood the
 * terminal or the log reading stderr.
 */
export const MAX_SENTENCE_CHARS = 2_000;

/** `text` cut to MAX_SENTENCE_CHARS, saying so; `more` says where the whole of it can be seen. */
export function capSentence(text: string, more = ""): string {
  if (text.length <= MAX_SENTENCE_CHARS) return text;
  // Not between the two halves of a character outside the BMP (an emoji), which would show as �.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(MAX_SENTENCE_CHARS - 1))
    ? MAX_SENTENCE_CHARS - 1
    : MAX_SENTENCE_CHARS;
  return `${text.slice(0, end)}… (cut at ${MAX_SENTENCE_CHARS} characters${more})`;
}
