/**
 * The known key that `unknown` most likely misspells, or undefined when none is close. Case,
 * `-` and `_` are ignored ("MCP_Servers"); a swap of two letters counts as one edit ("evn");
 * short keys allow fewer edits so "dev" does not become "env"; and a key that is the end or
 * start of a known one suggests it ("servers", as VS Code writes it, for "mcpServers").
 */
export function nearestKey(unknown: string, known: readonly string[]): string | undefined {
  const typed = normalize(unknown);
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const candidate = normalize(key);
    const affix = typed.length >= 4 && (candidate.endsWith(typed) || candidate.startsWith(typed));
    // No fewer edits than the lengths differ by: a far longer name is passed over unmeasured
    // (a server's 200 KB tool name would cost a matrix of its length times the typo's).
    if (!affix && Math.abs(candidate.length - typed.length) > allowedEdits(candidate)) continue;
    const distance = affix ? 0 : editDistance(typed, candidate);
    if (distance <= allowedEdits(candidate) && (best === undefined || distance < best.distance)) {
      best = { key, distance };
    }
  }
  return best?.key;
}

function normalize(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, "");
}

function allowedEdits(key: string): number {
  if (key.length <= 4) return 1;
  return key.length <= 8 ? 2 : 3;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, at(i - 2, j - 2) + 1);
      }
      const row = rows[i];
      if (row) row[j] = distance;
    }
  }
  return at(a.length, b.length);
}
