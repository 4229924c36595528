import type { Resource } from "@modelcontextprotocol/client";

/** `@server:uri` in a message, as typed. */
export interface Mention {
  server: string;
  uri: string;
  /** The whole mention as it appears in the message. */
  text: string;
}

/**
 * A mention starts a word: `@`, a server name, a colon and a URI with its scheme
 * (`@everything:demo://resource/1`). Requiring the scheme keeps `@Override:` and `me@host:22`
 * plain text.
 */
const MENTION = /(?<=^|\s)@([A-Za-z0-9_][\w.-]*):([A-Za-z][A-Za-z0-9+.-]*:\S+)/g;

/** Characters that end a sentence rather than a URI, when the URI with them is not a listed one. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}>'"]+$/;

/** Every mention in `text`, in order, each once. */
export function findMentions(text: string): Mention[] {
  const seen = new Set<string>();
  const mentions: Mention[] = [];
  for (const match of text.matchAll(MENTION)) {
    const [whole, server = "", uri = ""] = match;
    if (seen.has(whole)) continue;
    seen.add(whole);
    mentions.push({ server, uri, text: whole });
  }
  return mentions;
}

/**
 * The URI a mention means: a listed resource's URI as typed, or as shown (a secret in it is
 * shown redacted, and Tab completes what is shown), else the typed URI without the sentence's
 * closing punctuation.
 */
export function mentionedUri(
  typed: string,
  listed: readonly Resource[],
  redact: (text: string) => string,
): string {
  const candidates = [typed, typed.replace(TRAILING_PUNCTUATION, "")];
  for (const candidate of candidates) {
    const resource = listed.find((entry) => entry.uri === candidate || redact(entry.uri) === candidate);
    if (resource) return resource.uri;
  }
  return candidates[1] || typed;
}
