import { redactShared } from "../policy/redact-deep.js";
import { checkedLines, type RecordRedaction } from "../policy/redacted-json.js";
import { StreamRedactor } from "../policy/stream-redactor.js";
import type { AgentEvent } from "./events.js";

/** The session's redaction: the fast rule set plus known secret values (see SecretRedactor). */
export interface OutputRedaction {
  redact: (text: string) => string;
  /** Known secrets with whitespace in them, which streamed text must not release half of. */
  spacedSecrets: readonly string[];
  /**
   * The full rule set (secretlint's preset too), for the arguments a model proposes: they leave
   * as the person's screen, stdout, the trace and telemetry read them, and may hold a token only
   * that rule set knows (see passChecked).
   */
  full?: RecordRedaction;
}

/**
 * The one place where secrets are removed from what a session reports: every event passes here
 * on its way to the screen, the trace and stdout. What the model reads (tool results, knowledge
 * passages) was also redacted where it was made, before the model saw it. Streamed text is held back only as long as a
 * secret could still straddle a chunk border, and released before any other event.
 */
export class SessionOutput {
  private readonly stream: StreamRedactor;
  private streamStep = 0;

  constructor(private readonly redaction: OutputRedaction) {
    this.stream = new StreamRedactor(redaction.redact, redaction.spacedSecrets);
  }

  /** The events that may leave the session for this one, in order (often one, sometimes none). */
  pass(event: AgentEvent): AgentEvent[] {
    if (event.type === "text_delta") {
      this.streamStep = event.step;
      const delta = this.stream.push(event.delta);
      return delta ? [{ ...event, delta }] : [];
    }
    const held = this.stream.flush();
    const out: AgentEvent[] = held ? [{ type: "text_delta", step: this.streamStep, delta: held }] : [];
    out.push(this.redactEvent(event));
    return out;
  }

  /**
   * pass, and the arguments of a proposed call checked by the full rule set where its gate says
   * it could find something (a Linear or Slack token the patterns do not know). Only a proposed
   * call waits for it; every other event comes back as pass gives it.
   */
  async passChecked(event: AgentEvent): Promise<AgentEvent[]> {
    const out = this.pass(event);
    const { full } = this.redaction;
    if (!full || event.type !== "tool_call_proposed") return out;
    const checked: AgentEvent[] = [];
    for (const passed of out)
      checked.push(passed.type === "tool_call_proposed" ? await checkedCall(passed, full) : passed);
    return checked;
  }

  private redactEvent(event: Exclude<AgentEvent, { type: "text_delta" }>): AgentEvent {
    const { redact } = this.redaction;
    switch (event.type) {
      case "turn_start": {
        const { attached } = event;
        return {
          ...event,
          input: redact(event.input),
          ...(attached ? { attached: { ...attached, forModel: redact(attached.forModel) } } : {}),
        };
      }
      case "tool_call_proposed": {
        const { call } = event;
        return {
          ...event,
          call: {
            ...call,
            arguments: call.arguments && redactValues(call.arguments, redact),
            rawArguments: redact(call.rawArguments),
            problem: call.problem && redact(call.problem),
          },
        };
      }
      case "approval_requested":
      case "approval_decided":
        return { ...event, reason: redact(event.reason) };
      case "model_retry":
        return { ...event, reason: redact(event.reason) };
      case "tool_progress":
        return { ...event, message: event.message && redact(event.message) };
      case "tool_task":
        return {
          ...event,
          taskId: redact(event.taskId),
          statusMessage: event.statusMessage && redact(event.statusMessage),
        };
      case "warning":
      case "error":
        return { ...event, message: redact(event.message) };
      case "turn_end":
        return { ...event, answer: redact(event.answer) };
      case "tool_result":
        // Results were redacted with the full rule set where they were made (the model reads
        // them); messages the loop wrote around them (a failure, a model-chosen tool name) were
        // not, so every text field gets the fast pass here too.
        return {
          ...event,
          forModel: redact(event.forModel),
          display: redact(event.display),
          ...(event.structured === undefined ? {} : { structured: redact(event.structured) }),
          ...(event.outputSchemaProblem === undefined
            ? {}
            : { outputSchemaProblem: redact(event.outputSchemaProblem) }),
          ...(event.attachments === undefined ? {} : { attachments: event.attachments.map(redact) }),
          ...(event.serverExited === undefined ? {} : { serverExited: redact(event.serverExited) }),
        };
      case "kb_hits":
        // Redacted where they were made: the model reads them too.
        return event;
      case "context_compacted":
        return {
          ...event,
          ...(event.focus === undefined ? {} : { focus: redact(event.focus) }),
          ...(event.summary === undefined ? {} : { summary: redact(event.summary) }),
          dropped: event.dropped.map((item) =>
            item.kind === "tool_result" || item.kind === "tool_arguments"
              ? { ...item, tool: redact(item.tool) }
              : item,
          ),
        };
      case "model_request":
      case "model_step_end":
      case "tool_started":
        return event;
    }
  }
}

/**
 * Arguments: each string first (a secret JSON would escape is still found), then the JSON they
 * travel as, so a key and its value are seen together (`{"password": "…"}`). If the second pass
 * would break the JSON, the first pass stands.
 */
function redactValues(
  args: Record<string, unknown>,
  redact: (text: string) => string,
): Record<string, unknown> {
  const each = redactShared(args, redact);
  const json = JSON.stringify(each);
  const whole = redact(json);
  if (whole === json) return each;
  try {
    return JSON.parse(whole) as Record<string, unknown>;
  } catch {
    return each;
  }
}

/** A proposed call with its arguments (parsed and as the model wrote them) through the full rule set. */
async function checkedCall(
  event: Extract<AgentEvent, { type: "tool_call_proposed" }>,
  full: RecordRedaction,
): Promise<AgentEvent> {
  const { call } = event;
  const { now, checked } = checkedLines(
    [{ arguments: call.arguments ?? null, raw: call.rawArguments }],
    full,
  );
  if (!checked) return event;
  const line = (await checked.catch(() => now))[0] ?? "{}";
  const { arguments: args, raw } = JSON.parse(line) as {
    arguments: Record<string, unknown> | null;
    raw: string;
  };
  return { ...event, call: { ...call, arguments: args ?? undefined, rawArguments: raw } };
}
