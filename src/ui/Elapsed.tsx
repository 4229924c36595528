import { Text } from "ink";
import { useEffect, useState, type ReactNode } from "react";
import { formatDuration } from "../core/text/index.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const TICK_MS = 120;

/** A spinner and the time since it first appeared; only live panels show it. */
export function Elapsed(): ReactNode {
  const [startedAt] = useState(() => Date.now());
  const [now, setNow] = useState(startedAt);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  const frame = FRAMES[Math.floor((now - startedAt) / TICK_MS) % FRAMES.length] ?? "";
  return (
    <Text>
      {frame} {formatDuration(now - startedAt)}
    </Text>
  );
}
