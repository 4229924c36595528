import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import { marked, type Token, type Tokens } from "marked";
import type { ReactNode } from "react";
import { codeColor, highlightCode } from "./highlight-code.js";
import { decode, renderInline } from "./markdown-inline.js";
import { MarkdownTable } from "./MarkdownTable.js";
import { useTheme, type Theme } from "../parts/theme.js";

/**
 * Renders markdown (already sanitized) as terminal text: headings, lists, emphasis, highlighted
 * code, tables fitted to `width` and links (terminal hyperlinks where the terminal shows them).
 */
export function Markdown({ text, width }: { text: string; width: number }): ReactNode {
  const theme = useTheme();
  const tokens = marked.lexer(text, { gfm: true });
  return <Box flexDirection="column">{renderBlocks(tokens, theme, "b", width, true)}</Box>;
}

/** List items and quotes indent their blocks by this much. */
const INDENT = 2;

/** Top-level blocks are separated by a blank line, as in the source; blocks inside list items are not. */
function renderBlocks(
  tokens: readonly Token[],
  theme: Theme,
  key: string,
  width: number,
  spaced = false,
): ReactNode[] {
  const blocks = tokens.filter((token) => token.type !== "space");
  return blocks.map((token, index) => {
    const block = renderBlock(token, theme, `${key}.${index}`, width);
    return spaced && index > 0 ? (
      <Box key={`${key}.${index}`} marginTop={1} flexDirection="column">
        {block}
      </Box>
    ) : (
      block
    );
  });
}

function renderBlock(token: Token, theme: Theme, key: string, width: number): ReactNode {
  switch (token.type) {
    case "space":
      return null;
    case "heading": {
      const heading = token as Tokens.Heading;
      return (
        <Box key={key}>
          <Text bold underline={heading.depth === 1} color={theme.color("accent")}>
            {renderInline(heading.tokens, theme, key)}
          </Text>
        </Box>
      );
    }
    case "paragraph":
      return <Text key={key}>{renderInline((token as Tokens.Paragraph).tokens, theme, key)}</Text>;
    case "text": {
      const text = token as Tokens.Text;
      return <Text key={key}>{text.tokens ? renderInline(text.tokens, theme, key) : text.text}</Text>;
    }
    case "list": {
      const list = token as Tokens.List;
      const start = typeof list.start === "number" ? list.start : 1;
      return (
        <Box key={key} flexDirection="column">
          {list.items.map((item, index) => (
            <Box key={`${key}.${index}`} flexDirection="row">
              <Text color={theme.color("accent")}>
                {list.ordered ? `${start + index}. ` : item.task ? (item.checked ? "☑ " : "☐ ") : "• "}
              </Text>
              <Box flexDirection="column" flexGrow={1} flexShrink={1}>
                {renderBlocks(item.tokens, theme, `${key}.${index}`, width - INDENT)}
              </Box>
            </Box>
          ))}
        </Box>
      );
    }
    case "code": {
      const code = token as Tokens.Code;
      const lines = highlightCode(code.text, code.lang || undefined);
      return (
        <Box key={key} flexDirection="column" paddingLeft={2}>
          {code.lang ? <Text color={theme.color("muted")}>{code.lang}</Text> : null}
          {lines.map((line, index) => (
            <Text key={`${key}.${index}`}>
              {line.length === 0
                ? " "
                : line.map((segment, part) => (
                    <Text key={part} color={theme.noColor ? undefined : codeColor(segment.kind)}>
                      {segment.text}
                    </Text>
                  ))}
            </Text>
          ))}
        </Box>
      );
    }
    case "blockquote":
      return (
        <Box key={key} flexDirection="row">
          <Text color={theme.color("muted")}>│ </Text>
          <Box flexDirection="column" flexShrink={1}>
            {renderBlocks((token as Tokens.Blockquote).tokens, theme, key, width - INDENT)}
          </Box>
        </Box>
      );
    case "hr":
      return (
        <Text key={key} color={theme.color("muted")}>
          ────────────────
        </Text>
      );
    case "table":
      return <MarkdownTable key={key} table={token as Tokens.Table} theme={theme} width={width} />;
    default:
      // HTML and anything rarer are shown as the model wrote them.
      return <Text key={key}>{decode(token.raw.replace(/\n+$/, ""))}</Text>;
  }
}
