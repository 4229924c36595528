const BYTE_UNITS = ["KB", "MB", "GB", "TB"] as const;

/** Sizes in 1024-byte units as people read them: `512 B`, `1.5 KB`, `3.2 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes / 1024;
  let unit = 0;
  // Compares the rounded figure, so 1,048,575 bytes reads `1.0 MB`, never `1024.0 KB`.
  while (Number(value.toFixed(1)) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${BYTE_UNITS[unit] ?? ""}`;
}

/** Durations as people read them: `850 ms`, `1.2 s`, `2 min 5 s`, `1 h 3 min`; `?` when unknown. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return "?";
  // Each branch compares the figure it will print, so 59,960 ms reads `1 min 0 s`, never `60.0 s`.
  if (Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.round(ms / 60_000);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Lines in `text` as an editor counts them: a final line break ends the last line, not a new one. */
export function countLines(text: string): number {
  if (text === "") return 0;
  const lines = text.split("\n").length;
  return text.endsWith("\n") ? lines - 1 : lines;
}

/** A count with its noun, singular for one: `1 line`, `3 lines`. */
export function pluralize(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}

/** `2026-12-01 17:06`, in the local time zone: when something was saved or indexed. */
export function localMinute(date: Date): string {
  const two = (value: number): string => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
