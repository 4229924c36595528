import { describe, expect, it } from "vitest";
import { resumeNotices } from "../../src/core/session/resume-session.js";
import type { SavedSession } from "../../src/core/session/saved-session.js";

const saved: SavedSession = {
  id: "20261204-120000-000-abcdef",
  file: "/p/.mcpterm/sessions/20261204-120000-000-abcdef.jsonl",
  createdAt: "2026-12-04T12:00:00.000Z",
  cwd: "/p",
  turns: [
    {
      turn: 1,
      at: "2026-12-04T12:00:00.000Z",
      model: "old-model",
      input: "hi",
      attachments: [],
      answer: "hello",
      reason: "completed",
      tools: [],
    },
  ],
  history: [],
  skipped: 0,
};

describe("what a resumed session is told of a model it last used", () => {
  it("names the way to switch back that the mode has: /model in the TUI, --model in one-shot", () => {
    expect(resumeNotices(saved, { cwd: "/p", model: "new-model" })).toContain(
      "It last used the model old-model; this session uses new-model (/model old-model to switch).",
    );
    expect(resumeNotices(saved, { cwd: "/p", model: "new-model", oneShot: true })).toContain(
      "It last used the model old-model; this session uses new-model (--model old-model to switch).",
    );
  });
});
