import { sampleArguments } from "./sample-arguments.js";

/** What the adapter can do with the connected server, through mcpterm's own manager. */
export interface ScenarioServer {
  tools(): ReadonlyArray<{ name: string; inputSchema: unknown }>;
  resources(): ReadonlyArray<{ uri: string }>;
  prompts(): ReadonlyArray<{ name: string; arguments?: ReadonlyArray<{ name: string; required?: boolean }> }>;
  callTool(name: string, args: Record<string, unknown>): Promise<{ isError?: boolean }>;
  readResource(uri: string): Promise<unknown>;
  getPrompt(name: string, args: Record<string, string>): Promise<unknown>;
}

/** One request the scenario wants made, and whether its failure is the scenario's point. */
export interface PlannedCall {
  label: string;
  run: () => Promise<unknown>;
  /** The scenario makes this request fail on purpose: its failure is not the adapter's. */
  mayFail?: boolean;
}

/** The tool whose schema json-schema-2020-12-preservation asks to have echoed back. */
const FOCAL_SCHEMA_TOOL = "json_schema_2020_12_tool";

/**
 * What the suite's reference client does per scenario, made through mcpterm: most scenarios want
 * every tool called; some want exact calls (from the context), a schema echoed verbatim, every
 * resource read and prompt got, or nothing but the listing.
 */
export function plannedCalls(
  scenario: string,
  context: Record<string, unknown>,
  server: ScenarioServer,
): PlannedCall[] {
  const call = (name: string, args: Record<string, unknown>, mayFail = false): PlannedCall => ({
    label: `${name}(${JSON.stringify(args)})`,
    run: () => server.callTool(name, args),
    mayFail,
  });
  const everyTool = (): PlannedCall[] =>
    server.tools().map((tool) => call(tool.name, sampleArguments(tool.inputSchema)));
  switch (scenario) {
    // Only the listing is scored (its $ref must never be fetched); the tool itself is not served.
    case "json-schema-ref-no-deref":
      return [];
    case "json-schema-2020-12-preservation": {
      const focal = server.tools().find((tool) => tool.name === FOCAL_SCHEMA_TOOL);
      return focal ? [call("json_schema_echo", { schema: focal.inputSchema })] : [];
    }
    // The exact calls to make are the context's, null arguments included.
    case "http-custom-headers":
      return toolCalls(context).map((planned) => call(planned.name, planned.arguments));
    // Every method that carries a name header: calls, reads and prompt renders, once each.
    case "http-standard-headers":
      return [
        ...everyTool(),
        ...server.resources().map((resource): PlannedCall => ({
          label: `read ${resource.uri}`,
          run: () => server.readResource(resource.uri),
        })),
        ...server.prompts().map((prompt): PlannedCall => {
          const args = Object.fromEntries(
            (prompt.arguments ?? []).filter((arg) => arg.required).map((arg) => [arg.name, "sample"]),
          );
          return { label: `prompt ${prompt.name}`, run: () => server.getPrompt(prompt.name, args) };
        }),
      ];
    // A result without resultType: the 2026 SDK refuses it locally; the check is that it is not retried.
    case "sep-2322-client-request-state":
      return server
        .tools()
        .map((tool) =>
          call(tool.name, sampleArguments(tool.inputSchema), tool.name === "test_mrtr_no_result_type"),
        );
    default:
      return everyTool();
  }
}

function toolCalls(
  context: Record<string, unknown>,
): Array<{ name: string; arguments: Record<string, unknown> }> {
  const calls = context.toolCalls;
  if (!Array.isArray(calls)) return [];
  return calls.flatMap((entry: unknown) => {
    if (typeof entry !== "object" || entry === null) return [];
    const { name, arguments: args } = entry as { name?: unknown; arguments?: unknown };
    if (typeof name !== "string") return [];
    return [
      { name, arguments: typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {} },
    ];
  });
}
