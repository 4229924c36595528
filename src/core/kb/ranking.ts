/** A scored candidate before it is turned into a hit. */
export interface Candidate {
  path: string;
  score: number;
}

export interface RankingOptions {
  k: number;
  /** Candidates scoring below this fraction of the best one are dropped as noise. */
  minRelativeScore: number;
  /** At most this many results from one file while other files still have candidates. */
  maxPerFile: number;
}

/**
 * Picks the top `k` candidates (sorted by score, best first) so that one file cannot fill every
 * slot: a file's extra candidates are used only when no other file has any left above the
 * threshold. Order of the result stays by score.
 */
export function selectDiverse<T extends Candidate>(candidates: readonly T[], options: RankingOptions): T[] {
  const best = candidates[0]?.score ?? 0;
  if (best <= 0 || options.k <= 0) return [];
  const eligible = candidates.filter((candidate) => candidate.score >= best * options.minRelativeScore);
  const perFile = new Map<string, number>();
  const chosen = new Set<T>();
  for (const candidate of eligible) {
    if (chosen.size >= options.k) break;
    const count = perFile.get(candidate.path) ?? 0;
    if (count >= options.maxPerFile) continue;
    perFile.set(candidate.path, count + 1);
    chosen.add(candidate);
  }
  for (const candidate of eligible) {
    if (chosen.size >= options.k) break;
    chosen.add(candidate);
  }
  return eligible.filter((candidate) => chosen.has(candidate));
}
