import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { oneLine } from "../core/text/index.js";
import { headLines, markTerms, queryTerms } from "./format.js";
import { useTheme } from "./theme.js";
import type { KnowledgeView } from "./transcript-types.js";

const EXCERPT_WIDTH = 100;

/** "Knowledge (n)": the passages sent to the model, numbered as the answer cites them. */
export function KnowledgeBlock({
  knowledge,
  expanded,
  selected = false,
}: {
  knowledge: KnowledgeView;
  expanded: boolean;
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
          : oneLine(hit.text, EXCERPT_WIDTH);
        return (
          <Box key={`${hit.path}:${hit.startLine}`} flexDirection="column" paddingLeft={2}>
            <Text wrap="truncate-end">
              <Text bold>[{index + 1}]</Text> {hit.path}:{hit.startLine}-{hit.endLine}{" "}
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
