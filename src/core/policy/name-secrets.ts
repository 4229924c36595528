import type { SecretRedactor } from "./redact-secrets.js";
import { SecretHaystack } from "./known-secret-search.js";

/** Where a word of a name may start: after any of these, as a token's prefix would stand. */
const NAME_SEPARATORS = /[_.\-/:]/g;

/**
 * Whether a name (a tool's) carries a secret: a known one or a long part of it, or a token the
 * rules know by its shape. A name is words glued by `_` or `-` (`get_ghp_…`), which hides a
 * token from rules that look for a word's start, so it is read from the start of each word too.
 */
export function nameHoldsSecret(name: string, redactor: SecretRedactor): boolean {
  const starts = [0, ...Array.from(name.matchAll(NAME_SEPARATORS), (match) => match.index + 1)];
  if (starts.some((start) => redactor.redactSync(name.slice(start)).rules.length > 0)) return true;
  const haystack = new SecretHaystack(name);
  return redactor.knownNeedles.some((needle) => haystack.contains(needle));
}
