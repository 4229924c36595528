import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import type { SamplingQuestion } from "../../core/person/sampling.js";
import { headLines } from "../parts/format.js";
import { SAMPLING_OPTIONS } from "./question-choices.js";
import { ChoiceList, GuardNote, PanelHints, TextField } from "./QuestionParts.js";
import type { TextEntry } from "./question-reducer.js";
import { samplingLines, samplingTerms } from "../transcript/sampling-lines.js";
import { whileDrafting } from "./key-hints.js";
import { useTheme } from "../parts/theme.js";

/** Border and padding on each side. */
const FRAME = 4;

/**
 * A server asks to use the model: who asks, what it would send (the start of it, when long: the
 * whole request is printed above), the model that answers and the limits; send, edit, or deny.
 */
export function SamplingPanel({
  question,
  focus,
  text,
  draft,
  width,
  maxLines,
}: {
  question: SamplingQuestion;
  /** Index into SAMPLING_OPTIONS of the focused answer. */
  focus: number;
  /** The edit or reason field, once open. */
  text: TextEntry | undefined;
  /** The prompt holds a draft, so shortcut letters and digits type into it rather than decide. */
  draft: boolean;
  width: number;
  /** Most request lines that fit; a longer request was printed in full above the panel. */
  maxLines: number;
}): ReactNode {
  const theme = useTheme();
  const inner = Math.max(1, width - FRAME);
  const request = headLines(samplingLines(question).join("\n"), maxLines);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color("warning")} paddingX={1}>
      <Text bold color={theme.color("warning")}>
        Server {JSON.stringify(question.server)} asks to use the model
      </Text>
      <Text color={theme.color("muted")}>{samplingTerms(question)}</Text>
      {question.modelHints.length > 0 ? (
        <Text color={theme.color("muted")}>The server would prefer: {question.modelHints.join(", ")}</Text>
      ) : null}
      <Text>{request.lines.join("\n")}</Text>
      {request.hidden > 0 ? (
        <Text color={theme.color("warning")}>
          … {request.hidden} more lines: the whole request ({request.total} lines) is printed above this panel
        </Text>
      ) : null}
      {text === undefined ? (
        <>
          <ChoiceList options={SAMPLING_OPTIONS} focus={focus} subject={question.model} width={inner} />
          <PanelHints
            width={inner}
            hints={
              draft
                ? whileDrafting("deny")
                : [
                    ["Enter confirm"],
                    ["Esc deny"],
                    ["↑/↓ or 1–4 choose", "↑/↓ choose"],
                    ["y e n d answer at once", "y e n d"],
                  ]
            }
          />
          <GuardNote width={inner} />
        </>
      ) : text.purpose === "edit" ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>The last user message, as it will be sent:</Text>
          <Box borderStyle="single" borderColor={theme.color("accent")} paddingX={1}>
            <TextField editor={text.editor} maxLines={Math.max(3, Math.floor(maxLines / 2))} />
          </Box>
          <PanelHints
            width={inner}
            hints={[
              ["Enter send it to " + question.model, "Enter send"],
              ["Alt+Enter new line", "Alt+Enter"],
              ["Esc back to the list", "Esc back"],
            ]}
          />
        </Box>
      ) : (
        <Box flexDirection="column" marginTop={1}>
          <Box flexDirection="row">
            <Text>Why (the server reads this): </Text>
            <TextField editor={text.editor} maxLines={1} />
          </Box>
          <PanelHints
            width={inner}
            hints={[
              ["Enter deny with this reason", "Enter deny"],
              ["Esc deny without one", "Esc deny"],
            ]}
          />
        </Box>
      )}
    </Box>
  );
}
