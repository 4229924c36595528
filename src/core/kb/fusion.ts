/**
 * Reciprocal rank fusion (Cormack et al., 2009): each ranking gives an item 1 / (K + rank), so an
 * item high in both wins, and neither scale (BM25 or cosine) has to be made comparable to the
 * other. K = 60 is the paper's value.
 */
const K = 60;

export function reciprocalRankFusion(rankings: ReadonlyArray<readonly number[]>): Map<number, number> {
  const fused = new Map<number, number>();
  for (const ranking of rankings) {
    ranking.forEach((id, rank) => fused.set(id, (fused.get(id) ?? 0) + 1 / (K + rank + 1)));
  }
  return fused;
}
