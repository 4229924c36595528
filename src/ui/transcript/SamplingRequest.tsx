import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import type { SamplingQuestion } from "../../core/person/sampling.js";
import { samplingLines, samplingTerms } from "./sampling-lines.js";
import { useTheme } from "../parts/theme.js";

/** A sampling request printed whole into the transcript, above its panel. */
export function SamplingRequest({ question }: { question: SamplingQuestion }): ReactNode {
  const theme = useTheme();
  return (
    <Box flexDirection="column" borderStyle="single" borderColor={theme.color("muted")} paddingX={1}>
      <Text bold>Sampling request from server {JSON.stringify(question.server)}, in full</Text>
      <Text color={theme.color("muted")}>{samplingTerms(question)}</Text>
      <Text>{samplingLines(question).join("\n")}</Text>
    </Box>
  );
}
