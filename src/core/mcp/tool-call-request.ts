import {
  specTypeSchemas,
  type CallToolRequestOptions,
  type CallToolResult,
  type Client,
} from "@modelcontextprotocol/client";

/** What one tools/call request is: the SDK's params, and the options callTool takes. */
export interface ToolCallRequest {
  params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> };
  options: CallToolRequestOptions;
}

/**
 * Sends one tools/call. The SDK's `callTool` adds two things to a plain request: on a 2026 HTTP
 * connection it sends the arguments a tool marks with `x-mcp-header` as headers too (SEP-2243),
 * and it checks structuredContent against the tool's outputSchema (mcpterm leaves the schema out
 * and checks it itself, output-schema.ts). A connection that sends no headers (stdio) needs
 * neither, so in 2026 its calls are plain requests checked against the SDK's CallToolResult
 * schema, once the revision's codec has checked the answer against its wire schema: the same
 * checks without what callTool costs on every call (the scan of the input schema for headers,
 * and a result check built afresh each time, which first validates nothing to learn whether the
 * method has a schema and formats the error it throws away): 20 to 40 µs of CPU a call, of the
 * 200 or so a call costs mcpterm on a fast stdio server (bench/tool-call-bench.ts).
 * A 2025 connection keeps callTool: the schema it picks for that revision is the only check its
 * answers get, with that revision's rules for an answer of another kind (a task where a result
 * belongs). test/mcp/tool-call-request.test.ts holds both ways to what callTool makes of an answer.
 */
export function sendToolCall(
  client: Client,
  { params, options }: ToolCallRequest,
  connection: { sendsHeaders: boolean },
): Promise<CallToolResult> {
  if (connection.sendsHeaders || client.getProtocolEra() !== "modern")
    return client.callTool(params, options);
  const { toolDefinition: _definition, ...requestOptions } = options;
  return client.request({ method: "tools/call", params }, specTypeSchemas.CallToolResult, requestOptions);
}
