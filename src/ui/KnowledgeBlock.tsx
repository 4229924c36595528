import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { displayWidth, oneLine, truncateMiddle } from "../core/text/index.js";
import { headLines, markTerms, queryTerms } from "./format.js";
import { useTheme } from "./theme.js";
import type { KnowledgeView } from "./transcript-types.js";

/** "Knowledge (n)": the passages sent to the model, numbered as the answer cites them. */
export function KnowledgeBlock({
  knowledge,
  expanded,
  width,
  selected = false,
}: {
  knowledge: KnowledgeView;
  expanded: boolean;
  /** Columns the block may use. */
  width: number;
  selected?: boolean;
}): ReactNode {
  const theme = useTheme();
  const terms = queryTerms(knowledge.query);
  return (
    <Box flexDirection="column">
      <Text color={theme.color("accent")}>
        {selected ? "▶ " : expanded ? "▾ " : "▸ "}
        <Text bold>Knowledge ({knowledge.hits.length})</Text>
      </Text>
      {knowledge.hits.map((hit, index) => {
        const excerpt = expanded
          ? headLines(hit.text.trim(), 8).lines.join("\n")
          : oneLine(hit.text, width - 6);
        const number = `[${index + 1}] `;
        const lines = `:${hit.startLine}-${hit.endLine} `;
        // The path keeps both ends (the folder and the file name) when the window is narrow.
        const path = truncateMiddle(hit.path, Math.max(8, width - 2 - displayWidth(number + lines) - 5));
        return (
          <Box key={`${hit.path}:${hit.startLine}`} flexDirection="column" paddingLeft={2}>
            <Text wrap="truncate-end">
              <Text bold>{number}</Text>
              {path}
              {lines}
              <Text color={theme.color("muted")}>
                {hit.score.toFixed(2)}
                {hit.heading ? ` · ${hit.heading}` : ""}
              </Text>
            </Text>
            <Box paddingLeft={4}>
              <Text color={theme.color("muted")} wrap={expanded ? "wrap" : "truncate-end"}>
                {markTerms(excerpt, terms).map((part, partIndex) =>
                  part.match ? (
                    <Text key={partIndex} bold underline={theme.noColor} color={theme.color("highlight")}>
                      {part.text}
                    </Text>
                  ) : (
                    part.text
                  ),
                )}
              </Text>
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
