import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import type { Trace } from "./trace-model.js";
import type { WireRecord } from "./trace-records.js";

/** The JSON-RPC frames of a trace, optionally of one server, oldest first. */
export function wireFrames(trace: Trace, options: { server?: string } = {}): WireRecord[] {
  return options.server === undefined
    ? trace.wire
    : trace.wire.filter((frame) => frame.server === options.server);
}

/**
 * One line per frame: time since the first frame, server, direction, a summary (method and
 * id) and the whole message, so a server developer sees exactly what crossed the wire.
 */
export function renderWire(trace: Trace, options: { server?: string } = {}): string {
  const frames = wireFrames(trace, options);
  const first = trace.wire[0]?.at;
  const lines = frames.map((frame) => {
    const offset = first === undefined ? "" : `+${String(frame.at - first).padStart(6)} ms`;
    const arrow = frame.direction === "send" ? "→" : "←";
    const body =
      frame.preview === undefined
        ? JSON.stringify(frame.message)
        : `${frame.preview}… (${frame.chars ?? "?"} chars)`;
    return `${offset}  ${frame.server} ${arrow} ${summary(frame.message)}  ${body}`;
  });
  if (frames.length === 0)
    lines.push(
      options.server === undefined
        ? "(no wire frames recorded)"
        : `(no wire frames for server "${options.server}")`,
    );
  if (trace.wireTruncatedAt !== undefined)
    lines.push(`(wire capture stopped after ${trace.wireTruncatedAt} frames)`);
  return `${sanitizeForTerminal(lines.join("\n"))}\n`;
}

function summary(message: unknown): string {
  if (typeof message !== "object" || message === null) return "?";
  const { method, id, error } = message as { method?: unknown; id?: unknown; error?: unknown };
  const idText = typeof id === "string" || typeof id === "number" ? `#${id}` : "";
  if (typeof method === "string") return `${method}${idText ? ` ${idText}` : ""}`;
  if (error !== undefined) return `error ${idText}`.trim();
  return `result ${idText}`.trim();
}
