/** Durations in error sentences, written the way a person reads them rather than in raw milliseconds. */

/** A configured limit: "300 ms", "1.5 s", "60 s". */
export function formatLimit(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return `${Math.round(ms / 100) / 10} s`;
}

/** Roughly when a wait ends, e.g. "about 1 hour from now"; a second or two of drift does not matter. */
export function roughlyFromNow(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes === 0) return "under a minute from now";
  if (minutes === 1) return "about a minute from now";
  if (minutes < 60) return `about ${minutes} minutes from now`;
  const hours = Math.round(ms / 3_600_000);
  if (hours < 36) return `about ${hours} ${hours === 1 ? "hour" : "hours"} from now`;
  return `about ${Math.round(ms / 86_400_000)} days from now`;
}
