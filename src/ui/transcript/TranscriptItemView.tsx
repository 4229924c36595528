import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import { CommandResultView } from "./CommandResultView.js";
import { KnowledgeBlock } from "./KnowledgeBlock.js";
import { Markdown } from "../markdown/Markdown.js";
import { SamplingRequest } from "./SamplingRequest.js";
import { useTheme } from "../parts/theme.js";
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
      return item.section ? (
        <AnswerPart item={item} width={width} />
      ) : (
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

/**
 * An answer's confirmed or inferred part: its heading marked (✓ confirmed, ? inferred, to
 * verify) and its text behind a coloured bar, so a guess never reads like a fact, in colour or not.
 */
function AnswerPart({
  item,
  width,
}: {
  item: Extract<TranscriptItem, { kind: "assistant" }>;
  width: number;
}): ReactNode {
  const theme = useTheme();
  const confirmed = item.section === "confirmed";
  const color = theme.color(confirmed ? "success" : "warning");
  return (
    <Box marginTop={1} flexDirection="column">
      {item.label !== undefined ? (
        <Text color={color} bold>
          {confirmed ? "✓ " : "? "}
          {item.label}
          {confirmed || /verif/i.test(item.label) ? "" : " (to verify)"}
        </Text>
      ) : null}
      {item.text !== "" ? (
        <Box
          borderStyle="bold"
          borderTop={false}
          borderBottom={false}
          borderRight={false}
          borderColor={color}
          paddingLeft={1}
        >
          <Markdown text={item.text} width={Math.max(10, width - 2)} />
        </Box>
      ) : null}
    </Box>
  );
}
