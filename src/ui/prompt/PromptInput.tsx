import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import { graphemeAt, type EditorState } from "../keys/input-editor.js";
import { useTheme } from "../parts/theme.js";

/** The input box: the text with a block cursor, continuation lines indented under the prompt. */
export function PromptInput({ editor, dimmed }: { editor: EditorState; dimmed: boolean }): ReactNode {
  const theme = useTheme();
  const before = editor.text.slice(0, editor.cursor);
  // The whole grapheme under the cursor is inverted, so an emoji or accented letter stays whole.
  const at = graphemeAt(editor.text, editor.cursor);
  const after = editor.text.slice(editor.cursor + at.length);
  const cursorChar = at === "" || at === "\n" ? " " : at;
  const lines = `${before}\u0000${cursorChar}\u0000${at === "\n" ? "\n" : ""}${after}`.split("\n");
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={theme.color(dimmed ? "muted" : "accent")}
      paddingX={1}
    >
      {lines.map((line, index) => {
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
    </Box>
  );
}
