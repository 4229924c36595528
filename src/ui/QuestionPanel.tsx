import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { FormPanel } from "./FormPanel.js";
import type { QuestionFocus } from "./question-reducer.js";
import { SamplingPanel } from "./SamplingPanel.js";
import { useTheme } from "./theme.js";
import type { ServerQuestion, ToolCallView, WaitingQuestion } from "./transcript-types.js";
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

/** What waits behind the panel shown: later questions, and a call to approve that came after it. */
export function WaitingQuestions({
  questions,
  call,
  width,
}: {
  questions: readonly WaitingQuestion[];
  call: ToolCallView | undefined;
  width: number;
}): ReactNode {
  const theme = useTheme();
  const lines = [
    ...questions.map(
      (waiting) => `then server ${JSON.stringify(waiting.question.server)} asks ${asks(waiting)}`,
    ),
    ...(call ? [`then the approval of ${call.label} #${call.number}`] : []),
  ];
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
