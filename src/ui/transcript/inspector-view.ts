import { describeRelevance, plainExcerpt } from "../../core/kb/index.js";
import { wrapWords } from "../../core/text/index.js";
import { summarizeBlobs } from "../parts/blob-summary.js";
import { prettyArguments, resultSections } from "../parts/format.js";
import type { ColorRole } from "../parts/theme.js";
import type { KnowledgeView, ToolCallView, TranscriptState } from "./transcript-types.js";

/** One screen row of the inspector, already fitted to its width. */
export interface InspectorRow {
  text: string;
  role: ColorRole | undefined;
  /** The row goes on with the line above it: drawn after CONTINUED, so a wrap is not a line break. */
  continued?: true;
}

/** What a row that continues a wrapped line starts with. */
export const CONTINUED = "↪ ";

export interface InspectorViewport {
  rows: InspectorRow[];
  /** First row shown, clamped to the content. */
  offset: number;
  maxOffset: number;
  total: number;
  /** Blobs summarized in what is shown (0 when shown whole). */
  summarized: number;
}

interface Line {
  text: string;
  role?: ColorRole;
}

/** The entry open in the inspector, if any. */
export function inspected(
  state: TranscriptState,
): { call: ToolCallView | undefined; knowledge: KnowledgeView | undefined } | undefined {
  const ref = state.inspector === undefined ? undefined : state.expandables[state.inspector];
  if (!ref) return undefined;
  return {
    call:
      ref.kind === "tool"
        ? (state.finishedCalls[ref.callId] ?? state.turn?.calls.find((call) => call.callId === ref.callId))
        : undefined,
    knowledge: ref.kind === "knowledge" ? state.knowledge[ref.itemId] : undefined,
  };
}

/**
 * Pure: the rows of the inspected entry that fit `height` rows of `width` columns from the
 * scroll offset, lines wrapped by words and display width so scrolling moves by what is on
 * screen; a row that continues a line is marked as such.
 */
export function inspectorViewport(state: TranscriptState, width: number, height: number): InspectorViewport {
  const entry = inspected(state);
  const source = entry?.call ?? entry?.knowledge;
  const { rows, summarized } = laidOut(source, width, state.inspectorWhole, () =>
    entry?.call ? callLines(entry.call) : entry?.knowledge ? knowledgeLines(entry.knowledge) : [],
  );
  const maxOffset = Math.max(0, rows.length - height);
  const offset = Math.min(Math.max(0, state.inspectorScroll), maxOffset);
  return { rows: rows.slice(offset, offset + height), offset, maxOffset, total: rows.length, summarized };
}

/** The last layout, reused while its entry, width and mode stay: the App draws on every token and key. */
let lastLayout:
  { source: object; width: number; whole: boolean; rows: InspectorRow[]; summarized: number } | undefined;

/** The entry's lines, blobs summarized unless `whole`, wrapped to `width`; remembered for one entry. */
function laidOut(
  source: object | undefined,
  width: number,
  whole: boolean,
  lines: () => Line[],
): { rows: InspectorRow[]; summarized: number } {
  if (source && lastLayout?.source === source && lastLayout.width === width && lastLayout.whole === whole)
    return lastLayout;
  let summarized = 0;
  const rows: InspectorRow[] = [];
  for (const line of lines()) {
    const shown = whole ? { text: line.text, count: 0 } : summarizeBlobs(line.text);
    summarized += shown.count;
    for (const part of shown.text.replace(/\t/g, "  ").split("\n")) {
      const [first = "", ...rest] = wrapWords(part, width, width - CONTINUED.length);
      rows.push({ text: first, role: line.role });
      for (const row of rest) rows.push({ text: row, role: line.role, continued: true });
    }
  }
  if (source) lastLayout = { source, width, whole, rows, summarized };
  return { rows, summarized };
}

function callLines(call: ToolCallView): Line[] {
  const result = call.result;
  return [
    ...(call.tierReason ? [{ text: `tier: ${call.tierReason}`, role: "muted" as const }] : []),
    ...(call.problem ? [{ text: `problem: ${call.problem}`, role: "error" as const }] : []),
    { text: "arguments:", role: "muted" },
    { text: prettyArguments(call.args, call.rawArguments) },
    ...(result
      ? [
          ...(result.outputSchemaProblem === undefined
            ? []
            : [{ text: `⚠ ${result.outputSchemaProblem}`, role: "warning" as const }]),
          ...resultSections(result).flatMap((section) => [
            { text: section.title, role: "muted" as const },
            { text: section.text },
          ]),
          ...(result.redactions.length > 0
            ? [{ text: `secrets removed: ${result.redactions.join(", ")}`, role: "warning" as const }]
            : []),
        ]
      : []),
  ];
}

function knowledgeLines(knowledge: KnowledgeView): Line[] {
  return knowledge.hits.flatMap((hit, index) => [
    {
      text: `[${index + 1}] ${hit.path}:${hit.startLine}-${hit.endLine} · ${describeRelevance(hit.relevance)}${hit.matched.length > 0 ? ` · matched ${hit.matched.join(", ")}` : ""}${hit.heading ? ` · ${hit.heading}` : ""}`,
      role: "accent" as const,
    },
    { text: plainExcerpt(hit.text) },
    { text: "" },
  ]);
}
