import type { FetchQuestion } from "../../core/person/approval-request.js";
import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";
import type { ToolCallView } from "./transcript-types.js";

/**
 * `/kb add <url>` as a call for the approval panel: an `external` call whose arguments put the
 * domain on a line of its own above the URL, so where the request goes is read first.
 */
export function fetchCallView(callId: string, number: number, question: FetchQuestion): ToolCallView {
  const args = { domain: question.host, url: question.url };
  return {
    callId,
    number,
    label: "/kb add",
    tool: undefined,
    server: undefined,
    tier: "external",
    tierReason: "fetches a page from another server and adds it to the knowledge base",
    toolNotes: [],
    args,
    rawArguments: sanitizeForTerminal(JSON.stringify(args)),
    problem: undefined,
    state: "awaiting_approval",
    progress: undefined,
    askReason: sanitizeForTerminal(question.reason),
    askOrdinal: 1,
    decision: undefined,
    result: undefined,
  };
}
