import {
  ErrorCode,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";

export type SamplingParams = CreateMessageRequest["params"];
export type ElicitationParams = ElicitRequest["params"];

/**
 * Answers the requests a server sends mcpterm that need a person or the model. The session
 * builds one over its Person (serverRequestHandlers); a connection without one declines them all
 * (declineServerRequests), as nobody can be asked.
 */
export interface ServerRequestHandlers {
  createMessage(server: string, params: SamplingParams, signal: AbortSignal): Promise<CreateMessageResult>;
  elicit(server: string, params: ElicitationParams, signal: AbortSignal): Promise<ElicitResult>;
}

/** The MCP spec's code for a sampling request the user rejected. */
export const SAMPLING_REJECTED = -1;

/**
 * An error the SDK sends back as a JSON-RPC error with this code and message. Not an McpError,
 * whose message already starts "MCP error <code>:", which the server would then read twice.
 */
export function requestError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

export function samplingRefused(reason: string): Error & { code: number } {
  return requestError(SAMPLING_REJECTED, reason);
}

/** A request mcpterm cannot make sense of: the spec's invalid-params error, with the reason. */
export function invalidRequest(reason: string): Error & { code: number } {
  return requestError(ErrorCode.InvalidParams, reason);
}
