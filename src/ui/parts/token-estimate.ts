/**
 * A rough count of the tokens in streamed text, shown until the model reports its usage for the
 * step. BPE tokenizers spend about one token on four characters of English or code, and about one
 * on each CJK character or other non-Latin letter, so those two rates bound most text well enough
 * for a live counter; the real figure replaces it when the step ends.
 */
export function estimateTokens(text: string): number {
  let latin = 0;
  let other = 0;
  for (const character of text) {
    if ((character.codePointAt(0) ?? 0) < 0x0250) latin += 1;
    else other += 1;
  }
  return latin / 4 + other;
}
