import { describe, expect, it } from "vitest";
import { fitParts } from "../../src/ui/parts/fit-parts.js";
import { keyHints } from "../../src/ui/panels/key-hints.js";
import { statusParts } from "../../src/ui/app/status-parts.js";
import { initialTranscriptState } from "../../src/ui/transcript/transcript-reducer.js";
import type { TranscriptState } from "../../src/ui/transcript/transcript-types.js";

const idle: TranscriptState = {
  ...initialTranscriptState(),
  model: { name: "gpt-test", problem: undefined },
  servers: [
    { name: "a", status: "connected", error: undefined },
    { name: "b", status: "failed", error: "boom" },
  ],
  kb: { state: "ready", chunks: 12, files: 3 },
  tokens: 1234,
};
const busy: TranscriptState = {
  ...idle,
  turn: {
    number: 1,
    input: "hi",
    text: "",
    replyStarted: false,
    section: "body",
    calls: [],
    startedAt: 10_000,
    streamedTokens: 2.5,
    requestTokens: 0,
    answerTokens: 40,
    askedInStep: 0,
    backed: false,
  },
};
const line = (state: TranscriptState, width: number, now?: number): string =>
  fitParts(statusParts(state, now), width)
    .map((part) => part.text)
    .join(" · ");

describe("the status line", () => {
  it.each([
    [idle, 120, undefined, "gpt-test · 1/2 servers ready · 1 failed · kb 12 chunks · 1.2k tokens"],
    [idle, 40, undefined, "gpt-test · 1/2 srv · 1 failed · 1.2k tok"],
    [
      { ...idle, kb: { state: "ready" as const, chunks: 1, files: 1 } },
      120,
      undefined,
      "gpt-test · 1/2 servers ready · 1 failed · kb 1 chunk · 1.2k tokens",
    ],
    [busy, 120, 14_200, "gpt-test · 1/2 servers ready · 1 failed · kb 12 chunks · ⠴ 4.2 s · ↓ ~43 tokens"],
    [busy, 40, 14_200, "gpt-test · ⠴ 4.2 s ↓~43"],
    [
      { ...idle, toolSelection: { offered: 14, total: 527 } },
      120,
      undefined,
      "gpt-test · 1/2 servers ready · 1 failed · kb 12 chunks · 1.2k tokens · tools 14 of 527",
    ],
    [
      { ...idle, toolSelection: { offered: 14, total: 527 } },
      60,
      undefined,
      "gpt-test · 1/2 srv · 1 failed · 1.2k tok · tools 14/527",
    ],
    [
      { ...idle, model: { name: undefined, problem: "none" } },
      30,
      undefined,
      "no model · 1/2 srv · 1 failed",
    ],
  ])("case %#", (state, width, now, expected) => {
    expect(line(state, width, now)).toBe(expected);
  });

  it("shortens and drops key hints from the least important, so the first always shows", () => {
    const hints = (width: number): string =>
      fitParts(
        keyHints("approval", { busy: true, draft: false, queue: { messages: [], held: false } }),
        width,
      )
        .map((part) => part.text)
        .join(" · ");
    expect(hints(200)).toBe(
      "Enter confirm · Esc deny · ↑/↓ or 1–5 choose · y once · n deny · a always · p in this project · d deny with a reason",
    );
    expect(hints(38)).toBe("Enter confirm · Esc deny · ↑/↓ choose");
    expect(hints(10)).toBe("Enter con…");
  });

  it("never shows a key without what it does: at any width, Tab is Tab complete or gone", () => {
    const idle = keyHints("prompt", { busy: false, draft: false, queue: { messages: [], held: false } });
    for (let width = 40; width <= 140; width += 1) {
      const hints = fitParts(idle, width).map((part) => part.text);
      expect(hints.filter((hint) => hint.startsWith("Tab")).every((hint) => hint === "Tab complete")).toBe(
        true,
      );
    }
    expect(fitParts(idle, 100).map((part) => part.text)).toContain("Tab complete");
  });

  it("says, in every mode, that Enter adds a line while a paste's end is owed, and how to leave it", () => {
    const queue = { messages: [], held: false };
    for (const mode of ["prompt", "approval", "sampling"] as const) {
      const texts = keyHints(mode, { busy: false, draft: false, queue, pasteOwed: true }).map(
        (part) => part.text,
      );
      expect(texts.slice(0, 2)).toEqual(["paste not ended: Enter adds a line", "Esc type as usual"]);
      expect(texts.join(" ")).not.toMatch(/Enter (send|confirm)/);
    }
    const narrow = fitParts(keyHints("prompt", { busy: false, draft: false, queue, pasteOwed: true }), 40);
    expect(narrow.map((part) => part.text).join(" · ")).toBe("Enter adds a line · Esc type as usual");
  });
});
