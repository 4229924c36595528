import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import type { EditorState } from "../keys/input-editor.js";
import { useTheme } from "../parts/theme.js";
import { promptLayout } from "./prompt-window.js";

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
  const { lines, window: shown } = promptLayout(editor, columns, maxRows);
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
