/**
 * A passage enters the embedding ranking only this similar (cosine) to the message or more.
 * Calibrated with the Universal Sentence Encoder (bench/kb-eval-hybrid.ts): at 0.5 and 0.6
 * messages about nothing in the collections got passages by meaning alone (44 against 27 of 311
 * on cmrc at 0.5); at 0.7 no more than by keywords, and no collection lost nDCG@10. Cosine
 * scales differ between models, so another model may need its own check with that bench.
 */
export const MIN_SIMILARITY = 0.7;

/**
 * How much of a passage's fused score comes from the keyword ranking; the rest comes from its
 * similarity to the message. Measured with a real model (bench/kb-eval-hybrid.ts, figures in
 * docs/knowledge-base.md): reciprocal rank fusion (k = 60) cost up to 0.065 nDCG@10, because
 * 1 / (60 + rank) makes BM25's first and fifth places nearly equal, so a model weaker than the
 * keywords reorders them; normalized scores keep BM25's margins. 0.85 is the only weight tried
 * (with MIN_SIMILARITY 0.7) at least as good as keywords alone on every collection.
 */
export const KEYWORD_WEIGHT = 0.85;

export interface Scored {
  id: number;
  score: number;
}

/**
 * Convex combination (Bruch et al., 2023) of the keyword and embedding rankings: each ranking's
 * scores are scaled to 0..1 between its worst and best candidate, then weighted; a passage in
 * only one ranking gets nothing from the other.
 */
export function fuseScores(keyword: readonly Scored[], similar: readonly Scored[]): Map<number, number> {
  const fused = new Map<number, number>();
  for (const [ranking, weight] of [
    [keyword, KEYWORD_WEIGHT],
    [similar, 1 - KEYWORD_WEIGHT],
  ] as const) {
    const scale = minMax(ranking);
    for (const { id, score } of ranking) fused.set(id, (fused.get(id) ?? 0) + weight * scale(score));
  }
  return fused;
}

/** Scores to 0..1 between the lowest and the highest; all equal means all 1 (each is the best). */
function minMax(ranking: readonly Scored[]): (score: number) => number {
  let low = Infinity;
  let high = -Infinity;
  for (const { score } of ranking) {
    low = Math.min(low, score);
    high = Math.max(high, score);
  }
  return (score) => (high > low ? (score - low) / (high - low) : 1);
}
