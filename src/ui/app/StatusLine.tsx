import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import { fitParts, type Part } from "../parts/fit-parts.js";
import { statusParts } from "./status-parts.js";
import { useTheme } from "../parts/theme.js";
import type { TranscriptState } from "../transcript/transcript-types.js";
import { useNow } from "../parts/use-now.js";

export interface StatusLineProps {
  state: TranscriptState;
  hints: readonly Part[];
  width: number;
}

/** Model, servers, knowledge base and tokens on one line; what the keys do now on the next. */
export function StatusLine(props: StatusLineProps): ReactNode {
  return props.state.turn ? <LiveStatus {...props} /> : <StatusRows {...props} now={undefined} />;
}

/** While a turn runs the line ticks, showing its elapsed time and the tokens streamed so far. */
function LiveStatus(props: StatusLineProps): ReactNode {
  const now = useNow();
  return <StatusRows {...props} now={now} />;
}

function StatusRows({ state, hints, width, now }: StatusLineProps & { now: number | undefined }): ReactNode {
  const theme = useTheme();
  const parts = fitParts(statusParts(state, now), width);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {parts.map((part, index) => (
          <Text key={index}>
            {index > 0 ? <Text color={theme.color("muted")}> · </Text> : null}
            <Text color={theme.color(part.tag)}>{part.text}</Text>
          </Text>
        ))}
      </Text>
      <Text color={theme.color("muted")} wrap="truncate-end">
        {fitParts(hints, width)
          .map((part) => part.text)
          .join(" · ")}
      </Text>
    </Box>
  );
}
