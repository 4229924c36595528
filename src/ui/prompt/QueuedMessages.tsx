import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import { displayWidth, oneLine } from "../../core/text/index.js";
import { useTheme } from "../parts/theme.js";
import type { QueueView } from "../transcript/transcript-types.js";

const PREFIX = "⏵ queued: ";

/** Messages waiting for the running turn, one line each, under the live area. */
export function QueuedMessages({ queue, width }: { queue: QueueView; width: number }): ReactNode {
  const theme = useTheme();
  if (queue.messages.length === 0) return null;
  return (
    <Box flexDirection="column">
      {queue.messages.map((message) => (
        <Text key={message.id} color={theme.color("muted")}>
          {PREFIX}
          <Text color={theme.color("user")}>{oneLine(message.text, width - displayWidth(PREFIX))}</Text>
        </Text>
      ))}
      <Text color={theme.color("muted")} wrap="truncate-end">
        {queue.held
          ? "  held since the turn was cancelled: Enter on an empty prompt sends the next · ↑ takes the last back"
          : "  sent in order as each turn ends · ↑ on an empty prompt takes the last back to edit"}
      </Text>
    </Box>
  );
}
