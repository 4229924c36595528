import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { formatTokens, serverProgress } from "./format.js";
import { useTheme } from "./theme.js";
import type { TranscriptState } from "./transcript-types.js";

/** Model, servers, knowledge base and tokens on one line; what the keys do now on the next. */
export function StatusLine({ state, hints }: { state: TranscriptState; hints: string }): ReactNode {
  const theme = useTheme();
  const failed = state.servers.some((server) => server.status === "failed");
  const kb =
    state.kb.state === "ready"
      ? `kb ${state.kb.chunks} chunks`
      : state.kb.state === "loading"
        ? "kb indexing…"
        : "kb off";
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {state.model.name ? (
          <Text color={theme.color("accent")}>{state.model.name}</Text>
        ) : (
          <Text color={theme.color("error")}>no model (/model &lt;name&gt;)</Text>
        )}
        <Text color={theme.color("muted")}> · </Text>
        <Text color={failed ? theme.color("warning") : theme.color("muted")}>
          {serverProgress(state.servers)}
        </Text>
        <Text color={theme.color("muted")}>
          {" "}
          · {kb} · {formatTokens(state.tokens)} tokens
        </Text>
      </Text>
      <Text color={theme.color("muted")} wrap="truncate-end">
        {hints}
      </Text>
    </Box>
  );
}
