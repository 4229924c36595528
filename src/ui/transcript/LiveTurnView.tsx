import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";
import { Elapsed } from "../parts/Elapsed.js";
import type { LiveCalls } from "./live-calls.js";
import { Markdown } from "../markdown/Markdown.js";
import { ToolPanel } from "./ToolPanel.js";
import type { TranscriptState } from "./transcript-types.js";

/** The turn being streamed: the text not yet printed, and the calls not being asked about. */
export function LiveTurnView({
  state,
  calls,
  maxLines,
  width,
}: {
  state: TranscriptState;
  calls: LiveCalls;
  maxLines: number;
  width: number;
}): ReactNode {
  const turn = state.turn;
  if (!turn) return state.commandRunning ? <Text>running the command… </Text> : null;
  const lines = turn.text.split("\n");
  const shown = lines.length > maxLines ? lines.slice(-maxLines).join("\n") : turn.text;
  const waiting = turn.text === "" && turn.calls.every((call) => call.state !== "running");
  return (
    <Box flexDirection="column" marginTop={turn.replyStarted ? 0 : 1}>
      {shown ? <Markdown text={sanitizeForTerminal(shown)} width={width} /> : null}
      {calls.others.map((call) => (
        <ToolPanel key={call.callId} call={call} expanded={false} width={width} />
      ))}
      {waiting && calls.asking === undefined ? (
        <Text>
          thinking <Elapsed since={turn.startedAt} />
        </Text>
      ) : null}
    </Box>
  );
}
