import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import { displayWidth } from "../../core/text/index.js";
import { fitParts, type Part } from "../parts/fit-parts.js";
import { graphemeAt, type EditorState } from "../keys/input-editor.js";
import type { QuestionOption } from "./question-choices.js";
import { useTheme } from "../parts/theme.js";

/** A numbered list of answers, the focused one marked, as the approval panel draws its own. */
export function ChoiceList({
  options,
  focus,
  subject,
  width,
}: {
  options: ReadonlyArray<QuestionOption<string>>;
  focus: number;
  /** What the labels name: the model, or the page's domain. */
  subject: string;
  /** Columns inside the panel: a label that does not fit there uses its fewer words. */
  width: number;
}): ReactNode {
  return (
    <Box flexDirection="column" marginTop={1}>
      {options.map((option, index) => {
        const key = option.shortcut ? ` (${option.shortcut})` : "";
        const full = `${index === focus ? "›" : " "} ${index + 1}. ${option.label(subject)}${key}`;
        const words = displayWidth(full) <= width ? option.label(subject) : option.short;
        return (
          <Text key={option.choice} bold={index === focus} inverse={index === focus}>
            {index === focus ? "›" : " "} {index + 1}. {words}
            {key}
          </Text>
        );
      })}
    </Box>
  );
}

/** Muted hints that give way from the end in a narrow panel. */
export function PanelHints({
  hints,
  width,
}: {
  hints: ReadonlyArray<[string, string?]>;
  width: number;
}): ReactNode {
  const theme = useTheme();
  const parts: Part[] = hints.map(([text, short], index) => ({
    text,
    ...(short === undefined ? {} : { short }),
    priority: hints.length - index,
    tag: undefined,
  }));
  return (
    <Text color={theme.color("muted")}>
      {fitParts(parts, width)
        .map((part) => part.text)
        .join(" · ")}
    </Text>
  );
}

/** Says that keys typed as a panel appears decide nothing, in the words that fit. */
export function GuardNote({ width, then }: { width: number; then?: string }): ReactNode {
  const theme = useTheme();
  const long = `Keys typed as this appears, or while you type, go to the prompt and decide nothing${then ? `; ${then}` : ""}.`;
  return (
    <Text color={theme.color("muted")}>
      {width >= 60 ? long : "Keys typed as this appears decide nothing."}
    </Text>
  );
}

/** A text being edited, with a block cursor; at most `maxLines` lines, around the cursor. */
export function TextField({ editor, maxLines }: { editor: EditorState; maxLines: number }): ReactNode {
  const at = graphemeAt(editor.text, editor.cursor);
  const marked = `${editor.text.slice(0, editor.cursor)}\u0000${at === "" || at === "\n" ? " " : at}\u0000${at === "\n" ? "\n" : ""}${editor.text.slice(editor.cursor + at.length)}`;
  const lines = marked.split("\n");
  const cursorLine = lines.findIndex((line) => line.includes("\u0000"));
  const start = Math.max(0, Math.min(cursorLine - Math.floor(maxLines / 2), lines.length - maxLines));
  return (
    <Box flexDirection="column">
      {lines.slice(start, start + Math.max(1, maxLines)).map((line, index) => {
        const [plain = "", cursor, rest = ""] = line.split("\u0000");
        return (
          <Text key={start + index}>
            {plain}
            {cursor === undefined ? null : <Text inverse>{cursor}</Text>}
            {rest}
          </Text>
        );
      })}
    </Box>
  );
}
