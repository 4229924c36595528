import { Box, type DOMElement } from "ink";
import { Text } from "../parts/SafeText.js";
import { useRef, type ReactNode } from "react";
import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";
import { Elapsed } from "../parts/Elapsed.js";
import type { LiveCalls } from "./live-calls.js";
import { Markdown } from "../markdown/Markdown.js";
import { useTheme } from "../parts/theme.js";
import { useMeasuredRows } from "../parts/use-measured-rows.js";
import { streamingTail } from "./streaming-tail.js";
import { ToolPanel } from "./ToolPanel.js";
import type { TranscriptState } from "./transcript-types.js";

/**
 * The turn being streamed: the text not yet printed, and the calls not being asked about. It
 * takes at most `maxRows` rows: text taller than what the calls leave shows its last rows.
 */
export function LiveTurnView({
  state,
  calls,
  maxRows,
  width,
}: {
  state: TranscriptState;
  calls: LiveCalls;
  maxRows: number;
  width: number;
}): ReactNode {
  const theme = useTheme();
  // The calls under the text are measured: the text gets the rows they leave.
  const callsBox = useRef<DOMElement>(null);
  const callRows = useMeasuredRows(callsBox);
  const turn = state.turn;
  if (!turn) return state.commandRunning ? <Text>running the command… </Text> : null;
  const text = sanitizeForTerminal(turn.text);
  const waiting = turn.text === "" && turn.calls.every((call) => call.state !== "running");
  const margin = turn.replyStarted ? 0 : 1;
  const thinking = waiting && calls.asking === undefined;
  const tail = text
    ? streamingTail(text, width, maxRows - margin - callRows - (thinking ? 1 : 0))
    : undefined;
  return (
    <Box flexDirection="column" marginTop={margin}>
      {tail ? (
        <Box flexDirection="column">
          <Text color={theme.color("muted")} wrap="truncate-end">
            {`⋮ ${tail.hidden} rows above, printed whole when this part is done`}
          </Text>
          {tail.rows.map((row, index) => (
            <Text key={index} wrap="truncate-end">
              {row === "" ? " " : row}
            </Text>
          ))}
        </Box>
      ) : text ? (
        <Markdown text={text} width={width} />
      ) : null}
      <Box ref={callsBox} flexDirection="column">
        {calls.others.map((call) => (
          <ToolPanel key={call.callId} call={call} expanded={false} width={width} />
        ))}
      </Box>
      {thinking ? (
        <Text>
          thinking <Elapsed since={turn.startedAt} />
        </Text>
      ) : null}
    </Box>
  );
}
