import { FAILURE_CLASSES, type FailureClass } from "../policy/failure-class.js";
import type { Tier } from "../policy/tiers.js";

/** What a replay can send again: a tool call, a resource read, a prompt get. */
export type CallKind = "tool" | "resource" | "prompt";

/** One MCP request a session made, with the answer it got, as a trace or a calls file holds it. */
export interface RecordedCall {
  kind: CallKind;
  server: string;
  /** The tool's or the prompt's name, or the resource's URI. */
  target: string;
  /** A tool's arguments, or a prompt's (strings); empty for a read. */
  arguments: Record<string, unknown>;
  /** The tool's tier when it was recorded (a trace says; a calls file may). */
  tier: Tier | undefined;
  /** A person approved it when it was recorded (asked, or an "always allow"): its tier did not run it. */
  personApproved?: true;
  durationMs: number | undefined;
  recorded: RecordedOutcome;
  /** The line of the file it came from, for messages. */
  line: number;
}

/**
 * What the call got: the server's result (redacted, as the trace keeps it), an error instead of
 * one, or, for a result too large to keep whole, its first characters and its length.
 */
export type RecordedOutcome =
  | { kind: "result"; value: unknown }
  | { kind: "error"; failure: FailureClass | undefined; code: number | undefined; message: string }
  | { kind: "preview"; preview: string; chars: number };

export { FAILURE_CLASSES };

export function isFailureClass(value: unknown): value is FailureClass {
  return (FAILURE_CLASSES as readonly unknown[]).includes(value);
}

/** `fixture/echo`, `everything read demo://x`, `everything prompt simple`: how a call is named to a person. */
export function callLabel(call: Pick<RecordedCall, "kind" | "server" | "target">): string {
  switch (call.kind) {
    case "tool":
      return `${call.server}/${call.target}`;
    case "resource":
      return `${call.server} read ${call.target}`;
    case "prompt":
      return `${call.server} prompt ${call.target}`;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
