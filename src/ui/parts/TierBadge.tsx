import { Box } from "ink";
import { Text } from "./SafeText.js";
import type { ReactNode } from "react";
import type { Tier } from "../../core/policy/tiers.js";
import { useTheme } from "./theme.js";

/**
 * The tier in its own colour; with NO_COLOR, in brackets so it still stands out. It never
 * shrinks, so a narrow window shortens the text beside it, never the badge.
 */
export function TierBadge({ tier }: { tier: Tier | undefined }): ReactNode {
  const theme = useTheme();
  const label = tier ?? "unknown";
  return (
    <Box flexShrink={0}>
      {theme.noColor || !tier ? (
        <Text bold>[{label}]</Text>
      ) : (
        <Text color="black" backgroundColor={theme.color(`tier.${tier}`)} bold>
          {` ${label} `}
        </Text>
      )}
    </Box>
  );
}
