import type { ChatMessage } from "../llm/types.js";
import type { ToolSearch, ToolSelectionView } from "../tool-search/index.js";
import { estimateToolTokens } from "../window/token-estimate.js";
import type { ToolSelectionRecord } from "./events.js";
import { BUILT_IN_SERVER, type AgentTool, type ToolHost } from "./tool-host.js";

/** The window assumed when none is known (no context keeper): what most gateways give. */
const DEFAULT_WINDOW = 32_768;
/** Scores in the trace and --output json are rounded to this many decimals. */
const SCORE_DECIMALS = 3;

/** The tools one request offers, and what is told about them. */
export interface ToolOffer {
  tools: AgentTool[];
  /** Set when only some of the tools were offered. */
  selection?: ToolSelectionRecord;
  /** Held-back tools by model name: a call to one is refused with a pointer to search_tools. */
  heldBack: ReadonlySet<string>;
}

const sizes = new WeakMap<AgentTool, number>();

/** Estimated tokens of one tool's definition as sent; kept per tool, which does not change. */
export function toolTokens(tool: AgentTool): number {
  let size = sizes.get(tool);
  if (size === undefined) {
    size = estimateToolTokens([
      { name: tool.modelName, description: tool.modelDescription, parameters: tool.modelInputSchema },
    ]);
    sizes.set(tool, size);
  }
  return size;
}

/**
 * The tools of one model request: every tool that is not withheld, or, when tool search says
 * they are too many for the window, the selected ones. A withheld tool is shown in /tools but
 * never offered, so the model cannot call it either; a held-back one can be found again.
 */
export async function offerTools(
  host: ToolHost,
  search: ToolSearch | undefined,
  turn: { input: string; conversation: readonly ChatMessage[]; window: number | undefined },
): Promise<ToolOffer> {
  const listed = host.list().filter((tool) => tool.withheld === undefined);
  if (!search) return { tools: listed, heldBack: new Set() };
  const view = await search.select({
    tools: listed,
    always: (tool) => tool.server === BUILT_IN_SERVER,
    input: turn.input,
    conversation: turn.conversation,
    window: turn.window ?? DEFAULT_WINDOW,
    size: toolTokens,
    listSize: (tools) => tools.reduce((sum, tool) => sum + toolTokens(tool), 0),
  });
  const tools = view.offered.map((entry) => entry.tool);
  if (!view.on) return { tools, heldBack: new Set() };
  return {
    tools,
    selection: selectionRecord(view),
    heldBack: new Set(view.heldBack.map((entry) => entry.tool.modelName)),
  };
}

function selectionRecord(view: ToolSelectionView<AgentTool>): ToolSelectionRecord {
  const round = 10 ** SCORE_DECIMALS;
  return {
    total: view.total,
    why: view.why,
    offered: view.offered.map((entry) => ({
      name: entry.tool.modelName,
      reason: entry.reason,
      score: Math.round(entry.score * round) / round,
    })),
    heldBack: view.heldBack.length,
  };
}
