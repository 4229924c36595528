import { Box } from "ink";
import type { ReactNode } from "react";
import { displayWidth, truncateEnd } from "../../core/text/index.js";
import { Text } from "../parts/SafeText.js";
import { useTheme } from "../parts/theme.js";
import type { CompletionMenu } from "./completion-menu.js";

/** Rows of choices shown at once; the window follows the choice. */
const ROWS = 8;

/**
 * The completion menu under the prompt: one choice a row, its description beside it in the
 * muted colour, the chosen one inverted, and how many more there are above or below.
 */
export function CompletionMenuView({ menu, width }: { menu: CompletionMenu; width: number }): ReactNode {
  const theme = useTheme();
  const first = Math.min(Math.max(0, menu.selected - ROWS + 1), Math.max(0, menu.items.length - ROWS));
  const shown = menu.items.slice(first, first + ROWS);
  const wordWidth = Math.min(
    Math.max(...shown.map((item) => displayWidth(item.word))),
    Math.max(10, Math.floor(width / 2)),
  );
  const muted = theme.color("muted");
  const below = menu.items.length - first - shown.length;
  return (
    <Box flexDirection="column" paddingLeft={2} width={width}>
      {first > 0 ? <Text color={muted}>{`↑ ${first} more`}</Text> : null}
      {shown.map((item, offset) => {
        const chosen = first + offset === menu.selected;
        const word = truncateEnd(item.word, wordWidth);
        const padding = " ".repeat(Math.max(0, wordWidth - displayWidth(word)));
        const room = width - 4 - wordWidth - 2;
        const description = item.description && room > 4 ? truncateEnd(item.description, room) : "";
        return (
          <Box key={item.word} flexDirection="row">
            <Text inverse={chosen}>{`${word}${padding}`}</Text>
            <Text color={muted}>{description ? `  ${description}` : ""}</Text>
          </Box>
        );
      })}
      {below > 0 ? <Text color={muted}>{`↓ ${below} more`}</Text> : null}
    </Box>
  );
}
