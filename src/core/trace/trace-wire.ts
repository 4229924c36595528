import { redactDeep } from "../policy/redact-deep.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import { describeBase64, looksLikeBase64, truncateEnd } from "../text/index.js";
import type { Trace } from "./trace-model.js";
import type { WireRecord } from "./trace-records.js";

/** Strings longer than this are summarized unless the whole frames are asked for. */
const LONG_STRING = 200;
/** How much of a summarized string (or a frame kept only as a preview) is shown. */
const SHOWN = 80;

export interface WireOptions {
  server?: string;
  /** Every string whole, a base64 image included; by default long strings are summarized. */
  full?: boolean;
}

/** The JSON-RPC frames of a trace, optionally of one server, oldest first. */
export function wireFrames(trace: Trace, options: { server?: string } = {}): WireRecord[] {
  return options.server === undefined
    ? trace.wire
    : trace.wire.filter((frame) => frame.server === options.server);
}

/**
 * One line per frame: time since the first frame, server, direction, a summary (method and
 * id) and the message. Long strings in it (a base64 image, a file's text) are summarized as
 * `‹base64, 45.2 KB›` or their start and length, so one frame cannot fill the screen;
 * `full` shows exactly what crossed the wire.
 */
export function renderWire(trace: Trace, options: WireOptions = {}): string {
  const frames = wireFrames(trace, options);
  const first = trace.wire[0]?.at;
  let summarized = 0;
  const lines = frames.map((frame) => {
    const offset = first === undefined ? "" : `+${String(frame.at - first).padStart(6)} ms`;
    const arrow = frame.direction === "send" ? "→" : "←";
    let body: string;
    if (frame.preview !== undefined) {
      const preview = options.full ? frame.preview : truncateEnd(frame.preview, SHOWN);
      body = `${preview}… (${frame.chars ?? "?"} chars)`;
    } else if (frame.message === undefined) {
      // A trace written by something else may hold a frame without one.
      body = "(no message recorded)";
    } else if (options.full) {
      body = JSON.stringify(frame.message);
    } else {
      const shortened = summarizeStrings(frame.message);
      summarized += shortened.count;
      body = JSON.stringify(shortened.value);
    }
    return `${offset}  ${frame.server} ${arrow} ${summary(frame.message)}  ${body}`;
  });
  if (frames.length === 0) lines.push(noFrames(trace, options.server));
  if (trace.wireTruncatedAt !== undefined)
    lines.push(`(wire capture stopped after ${trace.wireTruncatedAt} frames)`);
  if (summarized > 0)
    lines.push(
      `(${summarized} long ${summarized === 1 ? "string" : "strings"} summarized; --full shows them whole)`,
    );
  return `${sanitizeForTerminal(lines.join("\n"))}\n`;
}

/** Why nothing is listed: no frames at all, or none for that server, naming those that have some. */
function noFrames(trace: Trace, server: string | undefined): string {
  if (server === undefined) return "(no wire frames recorded)";
  const servers = [...new Set(trace.wire.map((frame) => frame.server))];
  return servers.length === 0
    ? `(no wire frames for server "${server}": the trace has none at all)`
    : `(no wire frames for server "${server}"; the trace has frames of ${servers.map((name) => `"${name}"`).join(", ")})`;
}

/** `value` with every long string replaced by a summary, and how many were. */
function summarizeStrings(value: unknown): { value: unknown; count: number } {
  let count = 0;
  const summarized = redactDeep(value, (text) => {
    if (text.length <= LONG_STRING) return text;
    count += 1;
    return looksLikeBase64(text)
      ? describeBase64(text)
      : `${truncateEnd(text, SHOWN)} ‹${text.length} chars›`;
  });
  return { value: summarized, count };
}

function summary(message: unknown): string {
  if (typeof message !== "object" || message === null) return "?";
  const { method, id, error } = message as { method?: unknown; id?: unknown; error?: unknown };
  const idText = typeof id === "string" || typeof id === "number" ? `#${id}` : "";
  if (typeof method === "string") return `${method}${idText ? ` ${idText}` : ""}`;
  if (error !== undefined) return `error ${idText}`.trim();
  return `result ${idText}`.trim();
}
