import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { CommandResultView } from "./CommandResultView.js";
import { KnowledgeBlock } from "./KnowledgeBlock.js";
import { Markdown } from "./Markdown.js";
import { SamplingRequest } from "./SamplingPanel.js";
import { useTheme } from "./theme.js";
import { ToolPanel } from "./ToolPanel.js";
import type { TranscriptItem } from "./transcript-types.js";

/** One finished transcript item, as printed (once) into <Static>. */
export function TranscriptItemView({ item, width }: { item: TranscriptItem; width: number }): ReactNode {
  const theme = useTheme();
  switch (item.kind) {
    case "user":
      return (
        <Box marginTop={1} flexDirection="column">
          <Box flexDirection="row">
            <Text color={theme.color("user")} bold>
              ›{" "}
            </Text>
            <Box flexShrink={1}>
              <Text color={theme.color("user")}>{item.text}</Text>
            </Box>
          </Box>
          {(item.attachments ?? []).map((line, index) => (
            <Box key={index} paddingLeft={2}>
              <Text color={theme.color("muted")}>{line}</Text>
            </Box>
          ))}
        </Box>
      );
    case "assistant":
      return (
        <Box marginTop={1} flexDirection="column">
          <Markdown text={item.text} width={width} />
        </Box>
      );
    case "knowledge":
      return <KnowledgeBlock knowledge={item.knowledge} expanded={false} width={width} />;
    case "tool":
      return <ToolPanel call={item.call} expanded={false} width={width} />;
    case "notice":
      return (
        <Text color={theme.color(item.level === "info" ? "muted" : item.level)}>
          {item.level === "error" ? "✗ " : item.level === "warning" ? "! " : "· "}
          {item.text}
        </Text>
      );
    case "command":
      return (
        <Box marginTop={1}>
          <CommandResultView input={item.input} result={item.result} width={width} />
        </Box>
      );
    case "sampling":
      return <SamplingRequest question={item.question} />;
    case "detail":
      return (
        <Box flexDirection="column" borderStyle="single" borderColor={theme.color("muted")} paddingX={1}>
          {item.call ? (
            <ToolPanel call={item.call} expanded maxResultLines={Number.MAX_SAFE_INTEGER} width={width - 4} />
          ) : null}
          {item.knowledge ? <KnowledgeBlock knowledge={item.knowledge} expanded width={width - 4} /> : null}
        </Box>
      );
  }
}
