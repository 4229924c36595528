/* eslint-disable @typescript-eslint/no-deprecated -- the one place these types are named, see below. */
import type * as Sdk from "@modelcontextprotocol/client";

/*
 * Sampling, roots and logging are deprecated as of MCP 2026-07-28 (SEP-2577), yet stay in the
 * specification for at least twelve months, and every 2025 server uses them as before: mcpterm
 * keeps answering sampling and roots and showing log messages. Their types are named here once.
 */
export type LoggingLevel = Sdk.LoggingLevel;
export type LogMessageParams = Sdk.LoggingMessageNotification["params"];
export type Root = Sdk.Root;
export type CreateMessageRequest = Sdk.CreateMessageRequest;
export type CreateMessageResult = Sdk.CreateMessageResult;
export type SamplingMessage = Sdk.SamplingMessage;
export type SamplingMessageContentBlock = Sdk.SamplingMessageContentBlock;
