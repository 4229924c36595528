import { describe, expect, it } from "vitest";
import { evidenceHeading, splitEvidence } from "../../src/core/agent/answer-evidence.js";
import { CONFIRMED_INFERRED, defaultSystemPrompt } from "../../src/core/agent/system-prompt.js";
import type { AgentEvent } from "../../src/core/agent/events.js";
import { emptySummary, summarize } from "../../src/headless/run-summary.js";
import { initialTranscriptState, transcriptReducer } from "../../src/ui/transcript/transcript-reducer.js";
import { renderApp, TURN_START } from "../support/app-harness.js";

describe("evidenceHeading", () => {
  it.each([
    ["**Confirmed:**", "confirmed", "Confirmed", ""],
    ["**Confirmed:** the disk is full [1]", "confirmed", "Confirmed", "the disk is full [1]"],
    ["**Confirmed**: the disk is full", "confirmed", "Confirmed", "the disk is full"],
    ["Confirmed:", "confirmed", "Confirmed", ""],
    ["### Confirmed", "confirmed", "Confirmed", ""],
    ["## What is confirmed", "confirmed", "What is confirmed", ""],
    ["✅ **Verified (by tools):**", "confirmed", "Verified (by tools)", ""],
    ["- **Confirmed facts:** one", "confirmed", "Confirmed facts", "one"],
    ["**Inferred (to verify):**", "inferred", "Inferred (to verify)", ""],
    ["Inferred — to verify: the cache is stale", "inferred", "Inferred — to verify", "the cache is stale"],
    ["#### Inferences", "inferred", "Inferences", ""],
    ["**To verify:** restart it", "inferred", "To verify", "restart it"],
    ["Inferred：中文冒号", "inferred", "Inferred", "中文冒号"],
  ])("%s is a %s heading", (line, section, label, rest) => {
    expect(evidenceHeading(line)).toEqual({ section, label, rest });
  });

  it.each([
    "Confirmed that the server is up.",
    "I confirmed it with the tool.",
    "The confirmed count: 3",
    "**Note:** nothing was inferred",
    "Inferred from the logs, the cause is the disk.",
    "Confirmed by the logs, the disk filled up at 3 am and the writes failed after that point",
  ])("%s is prose", (line) => {
    expect(evidenceHeading(line)).toBeUndefined();
  });
});

describe("splitEvidence", () => {
  it("splits the closing parts off the body, losing no line", () => {
    const answer = [
      "The deploy failed because the disk is full.",
      "",
      "**Confirmed:**",
      "- `fixture/df` shows / at 100% [1]",
      "",
      "**Inferred (to verify):** the log rotation stopped",
      "- check cron",
    ].join("\n");
    expect(splitEvidence(answer)).toEqual({
      body: "The deploy failed because the disk is full.",
      confirmed: "- `fixture/df` shows / at 100% [1]",
      inferred: "the log rotation stopped\n- check cron",
    });
  });

  it("reads a heading only outside code, and only in order: a second Confirmed is content", () => {
    const answer = "```\nConfirmed:\n```\n\nInferred: a\n\nConfirmed: b";
    expect(splitEvidence(answer)).toEqual({
      body: "```\nConfirmed:\n```",
      confirmed: undefined,
      inferred: "a\n\nConfirmed: b",
    });
  });

  it("leaves an answer without the format whole, as its body", () => {
    expect(splitEvidence("Hello **there**.\n\nNothing to confirm.")).toEqual({
      body: "Hello **there**.\n\nNothing to confirm.",
      confirmed: undefined,
      inferred: undefined,
    });
  });
});

describe("the system prompt", () => {
  it("asks for the two parts unless the setting turns it off", () => {
    const now = new Date("2026-12-01T00:00:00Z");
    expect(defaultSystemPrompt(now, "/p")).toContain(CONFIRMED_INFERRED);
    expect(defaultSystemPrompt(now, "/p", [], { confirmedInferred: false })).not.toContain("**Confirmed:**");
  });
});

/** A scripted answer streamed in small pieces, as the engine reports it. */
/** A passage the turn found: what backs a "confirmed" part (see `answered`). */
const PASSAGE: AgentEvent = {
  type: "kb_hits",
  hits: [
    {
      path: "runbook.md",
      startLine: 1,
      endLine: 3,
      heading: "Disk",
      score: 4,
      relevance: 0.8,
      matched: ["disk"],
      text: "df shows / at 100%",
    },
  ],
};

/** A streamed answer's events; `backed`: the turn found a passage first (else nothing backs it). */
function answered(text: string, backed = true): AgentEvent[] {
  const pieces = text.match(/[\s\S]{1,7}/g) ?? [];
  return [
    TURN_START,
    ...(backed ? [PASSAGE] : []),
    ...pieces.map((delta): AgentEvent => ({ type: "text_delta", step: 1, delta })),
    {
      type: "model_step_end",
      step: 1,
      finishReason: "stop",
      usage: undefined,
      latencyMs: 1,
      firstTokenMs: 1,
      toolCalls: 0,
    },
    {
      type: "turn_end",
      turn: 1,
      reason: "completed",
      answer: text,
      steps: 1,
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
      deniedCalls: 0,
    },
  ];
}

const SCRIPTED = [
  "The disk is full.",
  "",
  "Here is why, in more words.",
  "",
  "**Confirmed:**",
  "- `fixture/df` shows / at 100%",
  "",
  "**Inferred:** log rotation stopped",
].join("\n");

describe("confirmed and inferred parts of a streamed answer", () => {
  it("become items of their own in the transcript, whatever the chunks", () => {
    const state = answered(SCRIPTED).reduce(transcriptReducer, initialTranscriptState());
    const answers = state.items.filter((item) => item.kind === "assistant");
    expect(answers.map((item) => [item.section, item.label, item.text])).toEqual([
      [undefined, undefined, "The disk is full."],
      [undefined, undefined, "Here is why, in more words."],
      ["confirmed", "Confirmed", "- `fixture/df` shows / at 100%"],
      ["inferred", "Inferred", "log rotation stopped"],
    ]);
  });

  it("close one model step's text: the next step starts with its body again", () => {
    const events = [
      ...answered("Checking.\n\nConfirmed: the disk is full").slice(0, -1),
      ...answered("The final answer.").slice(1),
    ];
    const state = events.reduce(transcriptReducer, initialTranscriptState());
    const answers = state.items.filter((item) => item.kind === "assistant");
    expect(answers.map((item) => [item.section, item.text])).toEqual([
      [undefined, "Checking."],
      ["confirmed", "the disk is full"],
      [undefined, "The final answer."],
    ]);
  });

  it("are drawn apart from the body, marked, and an answer without them is plain text", async () => {
    const { frame, until } = await renderApp(answered(SCRIPTED));
    await until(() => frame().includes("log rotation stopped"), "the answer");
    const drawn = frame();
    expect(drawn).toContain("✓ Confirmed");
    expect(drawn).toMatch(/┃ • `?fixture\/df`? shows \/ at 100%/);
    expect(drawn).toContain("? Inferred (to verify)");
    expect(drawn).toMatch(/┃ log rotation stopped/);
    expect(drawn).not.toContain("**Confirmed:**");

    const plain = await renderApp(answered("Just an answer.\n\nNo parts here."));
    await plain.until(() => plain.frame().includes("No parts here."), "the plain answer");
    expect(plain.frame()).not.toContain("┃");
    expect(plain.frame()).not.toContain("✓");
  });

  it("are a claim, not confirmed, when nothing in the turn backs them: plain text, and no JSON field", () => {
    const state = answered(SCRIPTED, false).reduce(transcriptReducer, initialTranscriptState());
    const answers = state.items.filter((item) => item.kind === "assistant");
    expect(answers.map((item) => [item.section, item.text])).toEqual([
      [undefined, "The disk is full."],
      [undefined, "Here is why, in more words."],
      [undefined, "Confirmed (nothing in this turn backs it): - `fixture/df` shows / at 100%"],
      ["inferred", "log rotation stopped"],
    ]);
    const summary = answered(SCRIPTED, false).reduce(summarize, emptySummary());
    expect(summary).not.toHaveProperty("confirmed");
    expect(summary).toMatchObject({ inferred: "log rotation stopped" });
  });

  it("are fields of --output json when the model wrote them", () => {
    const summary = answered(SCRIPTED).reduce(summarize, emptySummary());
    expect(summary).toMatchObject({
      answer: SCRIPTED,
      confirmed: "- `fixture/df` shows / at 100%",
      inferred: "log rotation stopped",
    });
    const plain = answered("Just an answer.").reduce(summarize, emptySummary());
    expect(plain).not.toHaveProperty("confirmed");
    expect(plain).not.toHaveProperty("inferred");
  });
});
