import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import { FormPanel } from "./FormPanel.js";
import type { QuestionFocus } from "./question-reducer.js";
import { SamplingPanel } from "./SamplingPanel.js";
import { useTheme } from "../parts/theme.js";
import type { AskedView, ServerQuestion, ToolCallView } from "../transcript/transcript-types.js";
import { UrlPanel } from "./UrlPanel.js";

/** The panel of the server question asked now, drawn from its state in the prompt store. */
export function QuestionPanel({
  question,
  focus,
  draft,
  width,
  maxLines,
}: {
  question: ServerQuestion;
  focus: QuestionFocus;
  draft: boolean;
  width: number;
  maxLines: number;
}): ReactNode {
  const { panel } = focus;
  if (question.kind === "sampling")
    return (
      <SamplingPanel
        question={question.question}
        focus={panel.kind === "sampling" ? panel.focus : 0}
        text={panel.kind === "sampling" ? panel.text : undefined}
        draft={draft}
        width={width}
        maxLines={maxLines}
      />
    );
  const asked = question.question;
  if (asked.mode === "url")
    return (
      <UrlPanel question={asked} focus={panel.kind === "url" ? panel.focus : 0} draft={draft} width={width} />
    );
  if (panel.kind !== "form") return null;
  return (
    <FormPanel
      server={asked.server}
      message={asked.message}
      form={panel.form}
      engaged={panel.engaged}
      width={width}
      maxLines={maxLines}
    />
  );
}

/** What waits behind the panel shown, in the order it will be asked: questions and calls to approve. */
export function WaitingAsked({
  asked,
  calls,
  width,
}: {
  /** What is asked after the panel shown. */
  asked: readonly AskedView[];
  /** The live calls, to name a call waiting for its approval. */
  calls: readonly ToolCallView[];
  width: number;
}): ReactNode {
  const theme = useTheme();
  const lines = asked.map((waiting) => {
    if (waiting.kind === "fetch") return `then the approval of ${waiting.call.label}`;
    if (waiting.kind === "call") {
      const call = calls.find((candidate) => candidate.callId === waiting.callId);
      return `then the approval of ${call ? `${call.label} #${call.number}` : "a call"}`;
    }
    return `then server ${JSON.stringify(waiting.question.server)} asks ${asks(waiting)}`;
  });
  if (lines.length === 0) return null;
  return (
    <Box flexDirection="column" paddingLeft={1} width={width}>
      {lines.map((line, index) => (
        <Text key={index} color={theme.color("muted")} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}

function asks(question: ServerQuestion): string {
  if (question.kind === "sampling") return "to use the model";
  return question.question.mode === "url" ? "you to open a web page" : "you to fill in a form";
}
