import { describe, expect, it } from "vitest";
import type { AgentEvent, ProposedToolCall } from "../../src/core/agent/events.js";
import { splitAtSafePoint } from "../../src/ui/markdown/markdown-split.js";
import { inspected } from "../../src/ui/transcript/inspector-view.js";
import {
  initialTranscriptState,
  transcriptReducer,
  type TranscriptAction,
} from "../../src/ui/transcript/transcript-reducer.js";
import type { TranscriptState } from "../../src/ui/transcript/transcript-types.js";

const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };

function call(id: string, overrides: Partial<ProposedToolCall> = {}): ProposedToolCall {
  return {
    id,
    step: 1,
    modelName: "fixture__write_note",
    server: "fixture",
    tool: "write_note",
    arguments: { name: "a.md" },
    rawArguments: '{"name":"a.md"}',
    tier: "dangerous",
    tierReason: "destructiveHint",
    toolNotes: [],
    problem: undefined,
    ...overrides,
  };
}

const start: AgentEvent = { type: "turn_start", turn: 1, input: "hi", at: "2026-01-01T00:00:00Z" };
const stepEnd: AgentEvent = {
  type: "model_step_end",
  step: 1,
  finishReason: "tool_calls",
  usage,
  latencyMs: 5,
  firstTokenMs: 1,
  toolCalls: 1,
};
const end = (reason: "completed" | "aborted" | "error"): AgentEvent => ({
  type: "turn_end",
  turn: 1,
  reason,
  answer: "",
  steps: 1,
  usage,
  deniedCalls: 0,
});
const result = (callId: string, ok: boolean, content: string): AgentEvent => ({
  type: "tool_result",
  callId,
  ok,
  forModel: content,
  display: content,
  truncated: false,
  redactions: [],
  durationMs: 12,
  failure: ok ? undefined : "permission",
});

function run(...actions: TranscriptAction[]): TranscriptState {
  return actions.reduce(transcriptReducer, initialTranscriptState());
}

describe("transcriptReducer", () => {
  it("prints what went with the user's message under it: attached resources and the prompt it came from", () => {
    const state = run({
      ...start,
      attached: {
        attachments: [
          { kind: "prompt", server: "everything", name: "args-prompt", detail: '1 message, city="Paris"' },
          {
            kind: "resource",
            server: "everything",
            name: "demo://a\u001b[2J",
            detail: "text/plain, 12 characters",
          },
        ],
        forModel: "<resource …>",
      },
    });
    expect(state.items[0]).toMatchObject({
      kind: "user",
      text: "hi",
      attachments: [
        '↳ from the prompt /everything:args-prompt · 1 message, city="Paris"',
        "⎘ @everything:demo://a · text/plain, 12 characters",
      ],
    });
  });

  it("prints the user's message and streams text in the live turn until a paragraph is complete", () => {
    const state = run(
      start,
      { type: "text_delta", step: 1, delta: "Hello " },
      { type: "text_delta", step: 1, delta: "world" },
    );
    expect(state.items.map((item) => item.kind)).toEqual(["user"]);
    expect(state.turn?.text).toBe("Hello world");
    const flushed = transcriptReducer(state, { type: "text_delta", step: 1, delta: "\n\nNext" });
    expect(flushed.items.at(-1)).toMatchObject({ kind: "assistant", text: "Hello world", first: true });
    expect(flushed.turn?.text).toBe("Next");
  });

  it("keeps a result's structured content and outputSchema problem, stripped of terminal controls", () => {
    const state = run(
      start,
      { type: "tool_call_proposed", call: call("c") },
      {
        ...(result("c", true, "see below") as Extract<AgentEvent, { type: "tool_result" }>),
        structured: '{\n  "note": "\u001b]52;c;ZXZpbA==\u0007a\u200bb\u009b2J"\n}',
        outputSchemaProblem:
          "The structuredContent does not match the tool's outputSchema at /n\u001b[2J: it must be number.",
      },
    );
    expect(state.finishedCalls.c?.result).toMatchObject({
      structured: '{\n  "note": "ab"\n}',
      outputSchemaProblem:
        "The structuredContent does not match the tool's outputSchema at /n: it must be number.",
    });
  });

  it("moves the rest of the text to the transcript at the end of a step and counts tokens", () => {
    const state = run(start, { type: "text_delta", step: 1, delta: "Done." }, stepEnd);
    expect(state.items.at(-1)).toMatchObject({ kind: "assistant", text: "Done." });
    expect(state.turn?.text).toBe("");
    expect(state.tokens).toBe(15);
  });

  it.each([
    [
      "approved and done",
      [
        {
          type: "approval_decided",
          callId: "c",
          approved: true,
          by: "user",
          reason: "ok",
          tier: "dangerous",
          tierReason: "destructiveHint",
          argumentSecrets: [],
        },
        { type: "tool_started", callId: "c" },
        result("c", true, "wrote"),
      ],
      "done",
    ],
    [
      "denied",
      [
        {
          type: "approval_decided",
          callId: "c",
          approved: false,
          by: "user",
          reason: "no",
          tier: "dangerous",
          tierReason: "destructiveHint",
          argumentSecrets: [],
        },
        result("c", false, "Not run"),
      ],
      "denied",
    ],
    [
      "failed",
      [
        { type: "tool_started", callId: "c" },
        { ...result("c", false, "boom"), failure: "business" },
      ],
      "failed",
    ],
    [
      "cancelled",
      [
        { type: "tool_started", callId: "c" },
        { ...result("c", false, "stop"), failure: "cancelled" },
      ],
      "cancelled",
    ],
  ] as Array<[string, AgentEvent[], string]>)(
    "a call that is %s ends in the transcript as %s",
    (_name, events, final) => {
      const state = run(start, stepEnd, { type: "tool_call_proposed", call: call("c") }, ...events);
      expect(state.turn?.calls).toEqual([]);
      expect(state.items.at(-1)).toMatchObject({
        kind: "tool",
        call: { callId: "c", state: final, number: 1 },
      });
      expect(state.expandables).toEqual([{ kind: "tool", callId: "c" }]);
    },
  );

  it("keeps a call live while it waits for approval, with progress while it runs", () => {
    let state = run(
      start,
      { type: "tool_call_proposed", call: call("c") },
      { type: "approval_requested", callId: "c", reason: "dangerous calls need a person's yes" },
    );
    expect(state.turn?.calls[0]?.state).toBe("awaiting_approval");
    state = run(
      start,
      { type: "tool_call_proposed", call: call("c") },
      { type: "approval_requested", callId: "c", reason: "dangerous calls need a person's yes" },
      {
        type: "approval_decided",
        callId: "c",
        approved: true,
        by: "session",
        reason: "allowed",
        tier: "dangerous",
        tierReason: "destructiveHint",
        argumentSecrets: [],
      },
      { type: "tool_started", callId: "c" },
      {
        type: "tool_progress",
        callId: "c",
        progress: 1,
        total: 4,
        // Line breaks would draw a fake panel under the running call: kept on one line.
        message: "\u001b[2Jstep\n╭──╮\n│ Allow this call? │",
      },
    );
    expect(state.turn?.calls[0]).toMatchObject({
      state: "running",
      progress: { progress: 1, total: 4, message: "step ⏎ ╭──╮ ⏎ │ Allow this call? │" },
    });
  });

  it("a call run as a task keeps its latest status, the server's words stripped of escapes", () => {
    const state = run(
      start,
      { type: "tool_call_proposed", call: call("c") },
      { type: "tool_started", callId: "c" },
      { type: "tool_task", callId: "c", taskId: "job-1", status: "working", statusMessage: "step 0" },
      {
        type: "tool_task",
        callId: "c",
        taskId: "job-1\u001b]8;;x\u0007",
        status: "input_required",
        statusMessage: "\u001b[2Jwaiting\u001b[31m for you",
      },
    );
    expect(state.turn?.calls[0]?.task).toEqual({
      taskId: "job-1",
      status: "input_required",
      statusMessage: "waiting for you",
    });
  });

  it.each<[string, TranscriptAction[], string]>([
    [
      "with part of an answer",
      [{ type: "text_delta", step: 1, delta: "Partial ans" }],
      "Interrupted: the answer above is partial.",
    ],
    ["before any answer", [], "Interrupted before an answer."],
    [
      "with a call cut off",
      [
        { type: "tool_call_proposed", call: call("c") },
        { type: "tool_started", callId: "c" },
      ],
      "Interrupted before an answer; calls not yet finished were cancelled.",
    ],
  ])("says what an interrupted turn left behind: %s", (_name, events, notice) => {
    const state = run(start, ...events, end("aborted"));
    expect(state.turn).toBeUndefined();
    expect(state.items.at(-1)).toMatchObject({ kind: "notice", level: "warning", text: notice });
  });

  it("says why the model is being waited for when a request is retried", () => {
    const state = run(start, { type: "model_retry", step: 1, attempt: 1, delayMs: 3000, reason: "HTTP 429" });
    expect(state.items.at(-1)).toMatchObject({
      kind: "notice",
      level: "info",
      text: "Model request failed (HTTP 429); retrying in 3.0 s (attempt 1).",
    });
  });

  it("puts a failed stream's error below the text it cut short, and marks that text partial", () => {
    const state = run(
      start,
      { type: "text_delta", step: 1, delta: "Partial ans" },
      {
        type: "error",
        code: "stalled",
        exitCode: 1,
        message: "The model endpoint went silent for 60 s mid-answer.",
      },
      end("error"),
    );
    const shown = state.items.map((item) =>
      item.kind === "notice" ? `${item.level}: ${item.text}` : item.kind,
    );
    expect(shown.slice(-3)).toEqual([
      "assistant",
      "error: The model endpoint went silent for 60 s mid-answer.",
      "warning: Interrupted: the answer above is partial.",
    ]);
    const failedEarly = run(
      start,
      { type: "error", code: "auth", exitCode: 1, message: "refused" },
      end("error"),
    );
    expect(failedEarly.items.at(-1)).toMatchObject({ kind: "notice", level: "error", text: "refused" });
  });

  it("estimates the streamed step's tokens until the model reports them, and keeps the estimate when it does not", () => {
    const streaming = run(start, { type: "text_delta", step: 1, delta: "abcdefgh 日本" });
    expect(streaming.turn?.streamedTokens).toBe(9 / 4 + 2);
    expect(streaming.turn?.startedAt).toBe(Date.parse("2026-01-01T00:00:00Z"));
    expect(transcriptReducer(streaming, stepEnd)).toMatchObject({ tokens: 15, turn: { streamedTokens: 0 } });
    expect(transcriptReducer(streaming, { ...stepEnd, usage: undefined }).tokens).toBe(5);
  });

  it("counts an interrupted step's request and streamed answer, as estimated, in the session's tokens", () => {
    const request: TranscriptAction = {
      type: "model_request",
      step: 1,
      messageCount: 1,
      tools: [],
      contextTokens: 120,
      contextWindow: 1000,
    };
    const cut = run(start, request, { type: "text_delta", step: 1, delta: "abcdefgh" }, end("aborted"));
    expect(cut.tokens).toBe(120 + 2);
    // A step the model finished and reported is counted once, by its report.
    const finished = run(start, request, stepEnd, end("aborted"));
    expect(finished.tokens).toBe(15);
  });

  it("/clear starts a new epoch with no items, entries or tokens; a refused /clear changes nothing", () => {
    const before = run(
      start,
      { type: "tool_call_proposed", call: call("c") },
      result("c", true, "ok"),
      stepEnd,
    );
    const clear = (kind: "text" | "error"): TranscriptAction => ({
      type: "ui_command_result",
      input: "/clear",
      result:
        kind === "text" ? { kind, text: "Conversation cleared.", after: "clear" } : { kind, message: "busy" },
    });
    const after = transcriptReducer(before, clear("text"));
    expect(after.items.map((item) => item.kind)).toEqual(["command"]);
    expect(after).toMatchObject({ tokens: 0, expandables: [], finishedCalls: {}, epoch: before.epoch + 1 });
    expect(after.items[0]?.id).toBeGreaterThan(before.items.at(-1)?.id ?? 0);
    const refused = transcriptReducer(before, clear("error"));
    expect(refused).toMatchObject({ tokens: before.tokens, epoch: before.epoch });
    expect(refused.items).toHaveLength(before.items.length + 1);
  });

  it("numbers the calls of a step as they are asked about, from 1 again in the next step", () => {
    const asked = (id: string): TranscriptAction => ({ type: "approval_requested", callId: id, reason: "r" });
    const state = run(
      start,
      { type: "tool_call_proposed", call: call("a") },
      { type: "tool_call_proposed", call: call("b") },
      asked("a"),
      asked("b"),
    );
    expect(state.turn?.calls.map((view) => view.askOrdinal)).toEqual([1, 2]);
    const next = run(start, asked("x"), stepEnd, { type: "tool_call_proposed", call: call("c") }, asked("c"));
    expect(next.turn?.calls.find((view) => view.callId === "c")?.askOrdinal).toBe(1);
  });

  it("strips escape sequences from everything a model or tool sent", () => {
    const state = run(
      { ...start, input: "x\u001b]52;c;Zm9v\u0007y" },
      { type: "tool_call_proposed", call: call("c", { rawArguments: "\u001b[2J{}" }) },
      result("c", true, "\u001b[31mred\u001b[0m"),
      { type: "error", code: "llm", message: "bad\u001b[1A", exitCode: 1 },
    );
    expect(JSON.stringify(state.items)).not.toContain("\\u001b");
    expect(state.items[0]).toMatchObject({ kind: "user", text: "xy" });
  });

  it("records knowledge hits as an expandable block and ignores an empty result", () => {
    const hit = {
      path: "a.md",
      startLine: 1,
      endLine: 3,
      heading: "A",
      score: 1.5,
      relevance: 0.8,
      matched: [],
      text: "rollback steps",
    };
    const state = run(start, { type: "kb_hits", hits: [hit] });
    expect(state.items.at(-1)).toMatchObject({ kind: "knowledge", knowledge: { hits: [hit], query: "hi" } });
    expect(state.expandables).toEqual([{ kind: "knowledge", itemId: 2 }]);
    expect(run(start, { type: "kb_hits", hits: [] }).items).toHaveLength(1);
  });

  it("opens the latest entry in the inspector, moves, prints it in full and closes", () => {
    let state = run(
      start,
      { type: "tool_call_proposed", call: call("a") },
      result("a", true, "one"),
      { type: "tool_call_proposed", call: call("b") },
      result("b", true, "two"),
      { type: "ui_inspector_toggle" },
    );
    expect(state.inspector).toBe(1);
    state = transcriptReducer(state, { type: "ui_inspector_move", delta: -5 });
    expect(state.inspector).toBe(0);
    state = transcriptReducer(state, { type: "ui_inspector_print" });
    expect(state.inspector).toBeUndefined();
    expect(state.items.at(-1)).toMatchObject({ kind: "detail", call: { callId: "a" } });
    expect(
      transcriptReducer({ ...state, inspector: 1 }, { type: "ui_inspector_toggle" }).inspector,
    ).toBeUndefined();
  });

  it("lists parallel calls in the order the model proposed them, whatever order they finish in", () => {
    const state = run(
      start,
      { type: "tool_call_proposed", call: call("slow") },
      { type: "tool_call_proposed", call: call("quick") },
      result("quick", true, "fast"),
    );
    // The quick call waits, done, in the live area until the one proposed before it is.
    expect(state.items.filter((item) => item.kind === "tool")).toEqual([]);
    expect(state.turn?.calls.map((live) => [live.callId, live.state])).toEqual([
      ["slow", "proposed"],
      ["quick", "done"],
    ]);
    const printed = transcriptReducer(state, result("slow", true, "slow"));
    expect(printed.items.flatMap((item) => (item.kind === "tool" ? [item.call.callId] : []))).toEqual([
      "slow",
      "quick",
    ]);
    expect(printed.turn?.calls).toEqual([]);
  });

  it("opens the newest call with Ctrl+O during a turn, running or not, and after an interrupted one", () => {
    const during = run(
      start,
      { type: "tool_call_proposed", call: call("old") },
      result("old", true, "old"),
      { type: "tool_call_proposed", call: call("running") },
      { type: "tool_started", callId: "running" },
      { type: "ui_inspector_toggle" },
    );
    expect(inspected(during)?.call).toMatchObject({ callId: "running", state: "running" });
    const after = [{ type: "ui_inspector_close" }, end("aborted"), { type: "ui_inspector_toggle" }] as const;
    const interrupted = after.reduce<TranscriptState>(transcriptReducer, during);
    expect(inspected(interrupted)?.call).toMatchObject({ callId: "running", state: "cancelled" });
  });

  it("scrolls the inspector within what the view can show, and starts at the top of each entry", () => {
    const opened = run(start, { type: "tool_call_proposed", call: call("c") }, result("c", true, "ok"), {
      type: "ui_inspector_toggle",
    });
    const scroll = (
      state: TranscriptState,
      delta: number | "top" | "bottom",
      maxOffset = 10,
    ): TranscriptState => transcriptReducer(state, { type: "ui_inspector_scroll", delta, maxOffset });
    expect(scroll(opened, 3).inspectorScroll).toBe(3);
    expect(scroll(opened, -3).inspectorScroll).toBe(0);
    expect(scroll(opened, "bottom").inspectorScroll).toBe(10);
    expect(scroll(scroll(opened, "bottom"), -4, 6).inspectorScroll).toBe(2);
    expect(scroll(scroll(opened, 5), "top").inspectorScroll).toBe(0);
    const whole = transcriptReducer(scroll(opened, 4), { type: "ui_inspector_whole" });
    expect(whole.inspectorWhole).toBe(true);
    expect(transcriptReducer(whole, { type: "ui_inspector_move", delta: -1 })).toMatchObject({
      inspectorScroll: 0,
      inspectorWhole: false,
    });
  });

  it("only ever appends items, so <Static> never has to redraw", () => {
    const actions: TranscriptAction[] = [
      start,
      { type: "text_delta", step: 1, delta: "a\n\nb" },
      stepEnd,
      { type: "ui_command_result", input: "/help", result: { kind: "text", text: "help" } },
      end("completed"),
      { type: "ui_notice", level: "info", text: "cleared" },
    ];
    let state = initialTranscriptState();
    for (const action of actions) {
      const next = transcriptReducer(state, action);
      expect(next.items.slice(0, state.items.length)).toEqual(state.items);
      state = next;
    }
  });
});

describe("splitAtSafePoint", () => {
  it.each([
    ["no blank line yet", "Hello", ["", "Hello"]],
    ["after a paragraph", "One\n\nTwo", ["One", "Two"]],
    ["a blank line inside a code fence is not safe", "```\na\n\nb", ["", "```\na\n\nb"]],
    ["after a closed fence", "```\na\n```\n\nnext", ["```\na\n```", "next"]],
    ["a paragraph ended by a blank line is final", "One\n\n", ["One", ""]],
    ["a single line break is not a paragraph end", "One\nTw", ["", "One\nTw"]],
  ] as Array<[string, string, [string, string]]>)("%s", (_name, text, expected) => {
    expect(splitAtSafePoint(text)).toEqual(expected);
  });
});

describe("the tools a request offered", () => {
  const request = (selection?: Extract<AgentEvent, { type: "model_request" }>["selection"]): AgentEvent => ({
    type: "model_request",
    step: 1,
    messageCount: 2,
    tools: [],
    ...(selection ? { selection } : {}),
  });

  it("are counted for the status line when the request selected them, mcpterm's own left out", () => {
    const selection = {
      total: 527,
      why: "527 tools, more than tools.search.maxTools (60)",
      offered: [
        { name: "search_tools", reason: "always" as const, score: 0 },
        { name: "weather__forecast", reason: "score" as const, score: 3.2 },
        { name: "github__list_issues", reason: "used" as const, score: 0 },
      ],
      heldBack: 525,
    };
    expect(run(start, request(selection)).toolSelection).toEqual({ offered: 2, total: 527 });
    expect(run(start, request(selection), request()).toolSelection).toBeUndefined();
  });
});
