import { UsageError } from "../errors.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import { formatDuration, oneLine, summarizeArguments } from "../text/index.js";
import type { Trace, TraceStep, TraceToolCall, TraceTurn } from "./trace-model.js";
import type { SubscriptionRecord } from "./trace-records.js";
import { describeProtocol } from "../mcp/protocol-era.js";

/** A node of the rendered tree: a label and its children. */
interface Node {
  label: string;
  children: Node[];
}

const node = (label: string, children: Node[] = []): Node => ({ label, children });

/** Columns for a short preview (a reason, a step's text); results and arguments get `LONG_PREVIEW`. */
const PREVIEW = 120;
const LONG_PREVIEW = 200;

/** A trace of lines it could not read says so in this many lines at most, above its tree. */
const PROBLEMS_SHOWN = 10;

/**
 * The trace as a plain-text tree: turn -> knowledge hits -> model steps -> tool calls -> answer,
 * with a duration on every node. UI-free and sanitized, so the TUI's `/trace` and `mcpterm
 * trace` print the same thing. `turn` (1-based, as in `TraceTurn.index`) picks one turn.
 */
export function renderTraceTree(trace: Trace, options: { turn?: number } = {}): string {
  const turns = options.turn === undefined ? trace.turns : [selectTurn(trace, options.turn)];
  const lines: string[] = [header(trace)];
  for (const problem of trace.problems.slice(0, PROBLEMS_SHOWN)) lines.push(`! ${problem}`);
  const more = trace.problems.length - PROBLEMS_SHOWN;
  if (more > 0) lines.push(`! and ${more} more (mcpterm trace --json lists them all)`);
  if (trace.turns.length === 0) lines.push("(no turns recorded)");
  for (const turn of turns) draw(turnNode(turn), lines);
  if (options.turn === undefined && trace.serverRequests.length > 0)
    draw(node("requests from servers", trace.serverRequests.map(requestNode)), lines);
  if (options.turn === undefined && trace.serverEvents.length > 0)
    draw(node("what servers did besides answering", trace.serverEvents.map(serverEventNode)), lines);
  return `${sanitizeForTerminal(lines.join("\n"))}\n`;
}

/** One sampling or elicitation request: who asked, what became of it, who decided. */
function requestNode(request: Trace["serverRequests"][number]): Node {
  if (request.type === "input_round") {
    const what = request.name === undefined ? request.method : `${request.method} ${request.name}`;
    const asks = request.asks.map((ask) => `${ask.key} (${ask.method})`).join(", ") || "nothing";
    return node(
      `input required from ${request.server}, round ${request.round} of ${what}: asks ${asks}${request.requestState ? " · state echoed" : ""}`,
    );
  }
  if (request.type === "sampling") {
    const hints = request.modelHints.length > 0 ? `, hints ${request.modelHints.join(", ")}` : "";
    const answer = request.answerChars === undefined ? "" : `, ${request.answerChars} chars back`;
    return node(
      `sampling from ${request.server}: ${request.outcome} by ${request.by} (${oneLine(request.reason, PREVIEW)}) · ${request.messages} messages, max ${request.maxTokens} tokens${hints}${answer}${request.edited ? ", edited" : ""}`,
    );
  }
  const where = request.domain ? ` · ${request.domain}` : "";
  const fields = request.fields.length > 0 ? ` · fields ${request.fields.join(", ")}` : "";
  return node(
    `elicitation (${request.mode}) from ${request.server}: ${request.action} by ${request.by} (${oneLine(request.reason, PREVIEW)})${where}${fields}`,
  );
}

/** A server's exit, with the stderr lines that matter, or a line it wrote to stdout. */
function serverEventNode(event: Trace["serverEvents"][number]): Node {
  if (event.type === "subscription") return node(subscriptionLine(event));
  if (event.type === "cache_hit")
    return node(
      `${event.server}: ${event.method}${event.key ? ` ${event.key}` : ""} answered from cache (ttlMs ${event.ttlMs}, ${event.leftMs} ms left)`,
    );
  if (event.type === "stdout_noise")
    return node(
      `${event.server} wrote to stdout, which is for JSON-RPC only: ${JSON.stringify(oneLine(event.line, PREVIEW))}`,
    );
  const how = event.signal ? `was killed by ${event.signal}` : `exited (code ${event.code ?? "?"})`;
  const said = [
    ...(event.errorLine ? [`error: ${oneLine(event.errorLine, LONG_PREVIEW)}`] : []),
    ...(event.location ? [`at: ${event.location}`] : []),
    ...(event.cause ? [`cause: ${oneLine(event.cause, LONG_PREVIEW)}`] : []),
  ];
  return node(
    `${event.server} ${how}`,
    said.map((line) => node(line)),
  );
}

/** One line per subscription event: what opened (and what the server honoured), changed or closed. */
function subscriptionLine(event: SubscriptionRecord): string {
  switch (event.kind) {
    case "opened":
      return `${event.server}: subscribed to ${event.subject} (${event.era}${event.honored ? `, honoured ${JSON.stringify(event.honored)}` : ""})`;
    case "updated":
      return `${event.server}: ${event.uri} updated`;
    case "updates_left_out":
      return `${event.server}: ${event.count} more updates not recorded (the first ${event.kept} are)`;
    case "closed":
      return `${event.server}: subscription to ${event.subject} closed (${event.why}${event.relisten ? "; listening again" : ""})`;
    case "failed":
      return `${event.server}: subscribing to ${event.subject} failed: ${oneLine(event.reason, LONG_PREVIEW)}${event.retrying ? " (trying again)" : ""}`;
  }
}

/** The turn at a 1-based index, or a UsageError that says which turns exist. */
export function selectTurn(trace: Trace, index: number): TraceTurn {
  const turn = trace.turns[index - 1];
  if (!turn || index < 1) {
    const range = trace.turns.length === 0 ? "it has no turns" : `turns are 1 to ${trace.turns.length}`;
    throw new UsageError(`There is no turn ${index} in this trace (${range}).`);
  }
  return turn;
}

function header(trace: Trace): string {
  const session = trace.sessions.at(-1);
  const parts = [`trace ${trace.file ?? ""}`.trim()];
  if (session?.sessionId) parts.push(`session ${session.sessionId}`);
  if (session?.version) parts.push(`mcpterm ${session.version}`);
  if (session?.model) parts.push(`model ${session.model}`);
  const servers = session?.servers ?? [];
  const lines = [parts.join(" · ")];
  for (const server of servers) {
    const info = server.serverInfo ? ` ${server.serverInfo.name} ${server.serverInfo.version}` : "";
    const timing = server.initializeMs === undefined ? "" : ` in ${formatDuration(server.initializeMs)}`;
    const protocol = server.protocolVersion ? `, protocol ${describeProtocol(server)}` : "";
    const error = server.error ? ` — ${server.error}` : "";
    lines.push(
      `server ${server.name}: ${server.status}${timing}${info}${protocol}, ${server.tools} tools${error}`,
    );
  }
  return lines.join("\n");
}

function turnNode(turn: TraceTurn): Node {
  const status = turn.end ? turn.end.reason : "did not finish (the process stopped mid-turn)";
  const children: Node[] = [];
  if (turn.knowledge) {
    const { hits, durationMs } = turn.knowledge;
    children.push(
      node(
        `knowledge: ${hits.length} hit(s) (${formatDuration(durationMs)})`,
        hits.map((hit) =>
          node(
            `${hit.path}:${hit.startLine}-${hit.endLine}${hit.heading ? ` ${hit.heading}` : ""} (score ${hit.score.toFixed(2)})`,
          ),
        ),
      ),
    );
  }
  for (const step of turn.steps) children.push(stepNode(step));
  for (const warning of turn.warnings) children.push(node(`warning: ${oneLine(warning, LONG_PREVIEW)}`));
  for (const compaction of turn.compactions)
    children.push(node(`context: ${oneLine(compaction, LONG_PREVIEW)}`));
  for (const error of turn.errors)
    children.push(node(`error (${error.code}): ${oneLine(error.message, LONG_PREVIEW)}`));
  if (turn.end) {
    const { usage } = turn.end;
    children.push(
      node(
        `answer (${turn.end.steps} step(s), ${formatDuration(turn.durationMs)}${usage ? `, ${usage.promptTokens} in / ${usage.completionTokens} out tokens` : ""}${turn.end.deniedCalls > 0 ? `, ${turn.end.deniedCalls} denied` : ""})`,
        turn.end.answer ? turn.end.answer.split("\n").map((line) => node(line)) : [node("(empty)")],
      ),
    );
  }
  return node(
    `turn ${turn.index}: ${oneLine(JSON.stringify(turn.input), 160)} (${formatDuration(turn.durationMs)}, ${status})`,
    children,
  );
}

function stepNode(step: TraceStep): Node {
  const facts = [formatDuration(step.durationMs)];
  if (step.firstTokenMs !== undefined) facts.push(`first token ${formatDuration(step.firstTokenMs)}`);
  if (step.finishReason) facts.push(`finish ${step.finishReason}`);
  if (step.usage) facts.push(`${step.usage.promptTokens} in / ${step.usage.completionTokens} out tokens`);
  if (step.messageCount !== undefined) facts.push(`${step.messageCount} messages`);
  facts.push(
    step.toolsTotal === undefined
      ? `${step.toolsOffered.length} tools offered`
      : `${step.toolsOffered.length} tools offered: ${step.serverToolsOffered ?? 0} of ${step.toolsTotal} selected, and mcpterm's own`,
  );
  const children: Node[] = step.retries.map((retry) =>
    node(`retry ${retry.attempt} after ${formatDuration(retry.delayMs)}: ${oneLine(retry.reason, PREVIEW)}`),
  );
  if (step.text && step.toolCalls.length > 0) children.push(node(`text: ${oneLine(step.text, PREVIEW)}`));
  for (const call of step.toolCalls) children.push(callNode(call));
  return node(`model step ${step.step} (${facts.join(", ")})`, children);
}

function callNode(call: TraceToolCall): Node {
  const name = call.server && call.tool ? `${call.server}/${call.tool}` : call.modelName;
  const outcome = !call.result ? "…" : call.result.ok ? "ok" : `failed: ${call.result.failure ?? "error"}`;
  const children: Node[] = [];
  if (call.tier) children.push(node(`tier ${call.tier}: ${call.tierReason ?? ""}`));
  children.push(node(`arguments ${summarizeArguments(call.arguments, call.rawArguments, LONG_PREVIEW)}`));
  if (call.approval) {
    const verdict = call.approval.approved ? "approved" : "denied";
    const wait = call.approval.waitMs === undefined ? "" : ` after ${formatDuration(call.approval.waitMs)}`;
    children.push(
      node(`${verdict} by ${call.approval.by}${wait}: ${oneLine(call.approval.reason, PREVIEW)}`),
    );
  }
  if (call.progressUpdates > 0) children.push(node(`${call.progressUpdates} progress update(s)`));
  if (call.task)
    children.push(
      node(
        `ran as task ${oneLine(call.task.taskId, PREVIEW)}`,
        call.task.statuses.map((status) => node(oneLine(status, PREVIEW))),
      ),
    );
  if (call.rawResult !== undefined)
    children.push(node(`raw result ${oneLine(JSON.stringify(call.rawResult), LONG_PREVIEW)}`));
  if (call.result) {
    const { display, structured, outputSchemaProblem } = call.result;
    children.push(node(`result ${oneLine(display, LONG_PREVIEW)}`));
    if (structured !== undefined) children.push(node(`structured ${oneLine(structured, LONG_PREVIEW)}`));
    if (outputSchemaProblem !== undefined) children.push(node(`⚠ ${outputSchemaProblem}`));
  }
  for (const note of call.guardrails) children.push(node(`guardrail: ${oneLine(note, LONG_PREVIEW)}`));
  return node(`tool ${name} (${formatDuration(call.durationMs)}, ${outcome})`, children);
}

/** Box-drawing layout of a node and its descendants, appended to `lines`. */
function draw(root: Node, lines: string[]): void {
  // Appended one by one: a spread of an answer's 200,000 lines ran out of stack.
  lines.push(root.label);
  const walk = (children: Node[], prefix: string): void => {
    children.forEach((child, index) => {
      const last = index === children.length - 1;
      lines.push(`${prefix}${last ? "└─ " : "├─ "}${child.label}`);
      walk(child.children, `${prefix}${last ? "   " : "│  "}`);
    });
  };
  walk(root.children, "");
}
