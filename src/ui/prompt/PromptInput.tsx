import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import { displayWidth } from "../../core/text/index.js";
import { graphemeAt, type EditorState } from "../keys/input-editor.js";
import { useTheme } from "../parts/theme.js";
import { promptWindow } from "./prompt-window.js";

/** The box's border and padding, and the "› " before each line. */
const FRAME_COLUMNS = 6;

/**
 * The input box: the text with a block cursor, continuation lines indented under the prompt. A
 * draft taller than `maxRows` shows the lines around the cursor, with how many are hidden above
 * and below, so the live area never grows taller than the window.
 */
export function PromptInput({
  editor,
  dimmed,
  columns,
  maxRows,
}: {
  editor: EditorState;
  dimmed: boolean;
  columns: number;
  maxRows: number;
}): ReactNode {
  const theme = useTheme();
  const before = editor.text.slice(0, editor.cursor);
  // The whole grapheme under the cursor is inverted, so an emoji or accented letter stays whole.
  const at = graphemeAt(editor.text, editor.cursor);
  const after = editor.text.slice(editor.cursor + at.length);
  const cursorChar = at === "" || at === "\n" ? " " : at;
  const lines = `${before}\u0000${cursorChar}\u0000${at === "\n" ? "\n" : ""}${after}`.split("\n");
  const width = Math.max(1, columns - FRAME_COLUMNS);
  const rows = lines.map((line) =>
    Math.max(1, Math.ceil(displayWidth(line.replaceAll("\u0000", "")) / width)),
  );
  const cursorLine = before.split("\n").length - 1;
  const shown = promptWindow(rows, cursorLine, maxRows);
  const muted = theme.color("muted");
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={theme.color(dimmed ? "muted" : "accent")}
      paddingX={1}
    >
      {shown.above > 0 ? <Text color={muted}>{`  ↑ ${hidden(shown.above)} above`}</Text> : null}
      {lines.slice(shown.first, shown.last + 1).map((line, offset) => {
        const index = shown.first + offset;
        const [plain = "", cursor, rest = ""] = line.split("\u0000");
        return (
          <Box key={index} flexDirection="row">
            <Text color={theme.color("accent")}>{index === 0 ? "› " : "  "}</Text>
            <Box flexShrink={1}>
              <Text>
                {plain}
                {cursor === undefined ? null : <Text inverse>{cursor}</Text>}
                {rest}
              </Text>
            </Box>
          </Box>
        );
      })}
      {shown.below > 0 ? <Text color={muted}>{`  ↓ ${hidden(shown.below)} below`}</Text> : null}
    </Box>
  );
}

function hidden(lines: number): string {
  return lines === 1 ? "1 more line" : `${lines} more lines`;
}
