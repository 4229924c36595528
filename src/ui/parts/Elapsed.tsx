import { Text } from "./SafeText.js";
import { useState, type ReactNode } from "react";
import { formatDuration } from "../../core/text/index.js";
import { spinnerFrame, useNow } from "./use-now.js";

/** A spinner and the time since `since` (ms since the epoch), or since it first appeared. */
export function Elapsed({ since }: { since?: number }): ReactNode {
  const [mountedAt] = useState(Date.now);
  const now = useNow();
  const elapsed = Math.max(0, now - (since ?? mountedAt));
  return (
    <Text>
      {spinnerFrame(elapsed)} {formatDuration(elapsed)}
    </Text>
  );
}
