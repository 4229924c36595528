/** Durations as people read them: `850 ms`, `1.24 s`, `2 min 5 s`; `?` when unknown. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return "?";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** One line of at most `max` characters, for previews of long text. */
export function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
