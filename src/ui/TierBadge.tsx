import { Text } from "ink";
import type { ReactNode } from "react";
import type { Tier } from "../core/policy/tiers.js";
import { useTheme } from "./theme.js";

/** The tier in its own colour; with NO_COLOR, in brackets so it still stands out. */
export function TierBadge({ tier }: { tier: Tier | undefined }): ReactNode {
  const theme = useTheme();
  const label = tier ?? "unknown";
  if (theme.noColor || !tier) return <Text bold>[{label}]</Text>;
  return (
    <Text color="black" backgroundColor={theme.color(`tier.${tier}`)} bold>
      {` ${label} `}
    </Text>
  );
}
