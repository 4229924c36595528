import {
  ProtocolError,
  ProtocolErrorCode,
  type ElicitRequest,
  type ElicitResult,
} from "@modelcontextprotocol/client";
import type { CreateMessageRequest, CreateMessageResult } from "../deprecated-mcp.js";

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
 * A refusal: on 2025 the SDK sends it back as a JSON-RPC error with this code and message; on
 * 2026, where a question arrives inside an answer, it fails the request that carried the
 * question — as the server's kind of error (a ProtocolError), so the call is not sent again as
 * if the link had failed, and the person is not asked the same question twice.
 */
export function requestError(code: number, message: string): Error & { code: number } {
  return new ProtocolError(code, message);
}

export function samplingRefused(reason: string): Error & { code: number } {
  return requestError(SAMPLING_REJECTED, reason);
}

/** A request mcpterm cannot make sense of: the spec's invalid-params error, with the reason. */
export function invalidRequest(reason: string): Error & { code: number } {
  return requestError(ProtocolErrorCode.InvalidParams, reason);
}
