import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import { describeRelevance, plainExcerpt } from "../../core/kb/index.js";
import { displayWidth, oneLine, truncateMiddle } from "../../core/text/index.js";
import { headLines, markTerms, queryTerms } from "../parts/format.js";
import { useTheme } from "../parts/theme.js";
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
  const fallbackTerms = queryTerms(knowledge.query);
  return (
    <Box flexDirection="column">
      <Text color={theme.color("accent")}>
        {selected ? "▶ " : expanded ? "▾ " : "▸ "}
        <Text bold>Knowledge ({knowledge.hits.length})</Text>
      </Text>
      {knowledge.hits.map((hit, index) => {
        const text = plainExcerpt(hit.text);
        const excerpt = expanded ? headLines(text, 8).lines.join("\n") : oneLine(text, width - 6);
        const terms = hit.matched.length > 0 ? hit.matched.map((word) => word.toLowerCase()) : fallbackTerms;
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
                {describeRelevance(hit.relevance)}
                {hit.matched.length > 0 ? ` · matched ${hit.matched.join(", ")}` : ""}
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
