import type { ToolCallRequest } from "../llm/types.js";
import { MAX_NESTING, nestsDeeperThan } from "../policy/nesting-limit.js";
import type { SchemaValidator } from "../policy/schema-validator.js";
import { isSearchTool, SEARCH_TOOLS_NAME } from "../tool-search/index.js";
import type { ProposedToolCall } from "./events.js";
import type { AgentTool, UnavailableTool } from "./tool-host.js";
import type { ToolOffer } from "./tool-offer.js";

/**
 * Looks up the tool a model asked for among the tools the request offered, parses and validates
 * its arguments, noting why it cannot run. A tool the request held back is not run, as an
 * unknown one is not: the model is pointed to search_tools, which offers it from the next step.
 */
export function resolveToolCall(
  request: ToolCallRequest,
  step: number,
  offer: Pick<ToolOffer, "tools" | "heldBack" | "selection" | "unavailable">,
  validator: SchemaValidator,
): { call: ProposedToolCall; tool: AgentTool | undefined; unavailable?: UnavailableTool } {
  const { tools } = offer;
  const tool = tools.find((candidate) => candidate.modelName === request.name);
  const parsed = parseArguments(request.arguments);
  const unavailable = tool ? undefined : offer.unavailable?.(request.name);
  let problem: string | undefined;
  // The person may have hidden search_tools: then the model is not pointed to a tool it lacks.
  const canSearch = tools.some(isSearchTool);
  if (unavailable) {
    problem = unavailable.reason;
  } else if (!tool && offer.heldBack.has(request.name)) {
    problem = canSearch
      ? `The tool "${request.name}" is not offered in this step, so it was not run. Call ${SEARCH_TOOLS_NAME} with what you need to do; the tools it finds are offered from your next step.`
      : `The tool "${request.name}" is not offered in this step, so it was not run.`;
  } else if (!tool) {
    const names = tools.map((candidate) => candidate.modelName).join(", ") || "none";
    const more =
      offer.selection && canSearch
        ? ` Only some tools are offered in each step; ${SEARCH_TOOLS_NAME} finds the others.`
        : "";
    problem = `Unknown tool "${request.name}". Available tools: ${names}.${more}`;
  } else if (!parsed.ok) {
    problem = parsed.tooDeep
      ? `The arguments nest deeper than ${MAX_NESTING} levels of objects and arrays, so they were not read. Send a JSON object that matches the tool's schema.`
      : `The arguments are not valid JSON: ${parsed.error}. Send a JSON object that matches the tool's schema.`;
  } else {
    const invalid = validator.check(tool.inputSchema, parsed.value);
    if (invalid)
      problem = `The arguments do not match the tool's input schema: ${invalid}. Fix them and call again.`;
  }
  return {
    tool,
    ...(unavailable ? { unavailable } : {}),
    call: {
      id: request.id,
      step,
      modelName: request.name,
      server: tool?.server ?? unavailable?.server,
      tool: tool?.name ?? unavailable?.tool,
      arguments: parsed.ok ? parsed.value : undefined,
      rawArguments: request.arguments,
      tier: tool?.tier,
      tierReason: tool?.tierReason,
      toolNotes: tool?.notes ?? [],
      problem,
    },
  };
}

type ParsedArguments =
  { ok: true; value: Record<string, unknown> } | { ok: false; error: string; tooDeep?: true };

export function parseArguments(raw: string): ParsedArguments {
  // Models send "" for a call without arguments.
  if (raw.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      ok: false,
      error: `expected an object, got ${Array.isArray(value) ? "an array" : typeof value}`,
    };
  }
  // Validated, scanned for secrets and redacted next, by walks that recurse (nesting-limit.ts).
  if (nestsDeeperThan(value, MAX_NESTING))
    return { ok: false, error: `nested deeper than ${MAX_NESTING} levels`, tooDeep: true };
  return { ok: true, value: value as Record<string, unknown> };
}
