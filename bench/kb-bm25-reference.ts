/**
 * The plain BM25 reference for bench/kb-eval.ts: lower-cased letter/digit runs (each CJK
 * character its own token), no stop words, no stemming, k1 = 1.2, b = 0.75, one field.
 */
export interface ReferenceDoc {
  id: string;
  title: string;
  text: string;
}

const K1 = 1.2;
const B = 0.75;
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu;

export function naiveTokens(text: string): string[] {
  return Array.from(text.toLowerCase().matchAll(TOKEN), (match) => match[0]);
}

/** Builds the index once and returns a ranking function: query -> doc ids, best first. */
export function bm25Reference(docs: readonly ReferenceDoc[]): (query: string) => string[] {
  const postings = new Map<string, Map<number, number>>();
  const lengths: number[] = [];
  docs.forEach((doc, index) => {
    const tokens = naiveTokens(`${doc.title} ${doc.text}`);
    lengths.push(tokens.length);
    for (const token of tokens) {
      const posting = postings.get(token) ?? new Map<number, number>();
      posting.set(index, (posting.get(index) ?? 0) + 1);
      postings.set(token, posting);
    }
  });
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, lengths.length);
  return (query) => {
    const scores = new Map<number, number>();
    for (const token of naiveTokens(query)) {
      const posting = postings.get(token);
      if (!posting) continue;
      const idf = Math.log(1 + (docs.length - posting.size + 0.5) / (posting.size + 0.5));
      for (const [doc, frequency] of posting) {
        const norm = K1 * (1 - B + (B * (lengths[doc] ?? 0)) / averageLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * frequency * (K1 + 1)) / (frequency + norm));
      }
    }
    return [...scores.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 100)
      .map(([doc]) => docs[doc]?.id ?? "");
  };
}
