import { useEffect, useState } from "react";

/** How often live clocks and spinners move: often enough to look alive, rarely enough to stay calm. */
export const TICK_MS = 120;

/** The time now (ms since the epoch), updated every tick while the component is mounted. */
export function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** The spinner's frame `elapsedMs` after it started. */
export function spinnerFrame(elapsedMs: number): string {
  return FRAMES[Math.floor(Math.max(0, elapsedMs) / TICK_MS) % FRAMES.length] ?? "";
}
