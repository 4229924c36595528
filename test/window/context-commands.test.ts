import { describe, expect, it } from "vitest";
import { costOf, renderStats } from "../../src/core/commands/context-commands.js";
import { NarrowedToolHost } from "../../src/core/agent/narrowed-tool-host.js";
import type { SessionStats } from "../../src/core/agent/session.js";
import type { AgentTool, ToolHost } from "../../src/core/agent/tool-host.js";
import { isContextLengthMessage } from "../../src/core/llm/model-errors.js";
import { windowFromError } from "../../src/core/window/context-budget.js";
import { statusParts } from "../../src/ui/app/status-parts.js";
import { initialTranscriptState } from "../../src/ui/transcript/transcript-reducer.js";

const stats: SessionStats = {
  model: "qwen",
  turns: [
    {
      turn: 1,
      usage: { promptTokens: 3_900, completionTokens: 120, totalTokens: 4_020, cachedTokens: 3_000 },
    },
    { turn: 2, usage: { promptTokens: 4_100, completionTokens: 80, totalTokens: 4_180 } },
  ],
  usage: { promptTokens: 8_000, completionTokens: 200, totalTokens: 8_200, cachedTokens: 3_000 },
  window: { tokens: 8_192, source: "server", detail: "llama.cpp GET /props (n_ctx)" },
  contextTokens: 4_200,
  promptBudget: 6_554,
  systemPromptTokens: 420,
  toolTokens: 3_461,
  toolCount: 28,
  compactions: 1,
};

describe("/stats", () => {
  it("shows per-turn and session tokens, the window, the fixed prompt, and warns when tools take over a quarter", () => {
    const text = renderStats(stats, undefined);
    expect(text).toContain("context window 8,192 tokens, from llama.cpp GET /props (n_ctx).");
    expect(text).toContain(
      "Fixed prompt: about 3,881 tokens before you type, 47% of the window: the system prompt 420, 28 tool definitions 3,461.",
    );
    expect(text).toMatch(/⚠ The tool definitions take 42% of the window.*excludeTools/);
    expect(text).toMatch(/^1 +3,900 +120 +3,000$/m);
    expect(text).toMatch(/^all +8,000 +200 +3,000$/m);
    expect(text).toContain("set model.pricing");
    expect(renderStats({ ...stats, toolTokens: 500 }, undefined)).not.toContain("⚠");
  });

  it("says once, in one sentence, that the window is mcpterm's default and how to set it", () => {
    const window = {
      tokens: 32_768,
      source: "default" as const,
      detail: "as the endpoint does not report it (set model.contextWindow)",
    };
    const [first] = renderStats({ ...stats, window }, undefined).split("\n");
    expect(first).toBe(
      "Model qwen: context window 32,768 tokens, mcpterm's default, as the endpoint does not report it (set model.contextWindow).",
    );
  });

  it("prices cached prompt tokens at their own rate", () => {
    const pricing = { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5, currency: "USD" };
    expect(costOf(stats.usage, pricing)).toBeCloseTo((5_000 * 2 + 3_000 * 0.5 + 200 * 8) / 1_000_000);
    expect(renderStats(stats, pricing)).toContain("Cost this session: 0.0131 USD");
  });
});

describe("context-length errors", () => {
  it.each([
    ["request (17509 tokens) exceeds the available context size (8192 tokens), try increasing it", 8192],
    ["This model's maximum context length is 4096 tokens. However, you requested 5000 tokens", 4096],
    ["context_length_exceeded", undefined],
    [
      "The number of tokens to keep from the initial prompt is greater than the context length of only 2048 tokens",
      2048,
    ],
    ["prompt is too long: 215000 tokens > 200000 maximum", undefined],
  ])("recognizes %j", (message, window) => {
    expect(isContextLengthMessage(message)).toBe(true);
    expect(windowFromError(message)).toBe(window);
  });

  it("leaves other errors alone", () => {
    expect(isContextLengthMessage("model 'x' not found")).toBe(false);
    expect(isContextLengthMessage(undefined)).toBe(false);
  });
});

describe("the status line", () => {
  it("shows how full the context window is, in warning colour from 80%", () => {
    const state = { ...initialTranscriptState(), context: { tokens: 3_400, window: 4_096 } };
    const part = statusParts(state, undefined).find((candidate) => candidate.text.startsWith("ctx"));
    expect(part).toMatchObject({ text: "ctx 83% of 4.1k", tag: "warning" });
    expect(
      statusParts(initialTranscriptState(), undefined).some((candidate) => candidate.text.startsWith("ctx")),
    ).toBe(false);
  });
});

describe("/tools hide and /tools show", () => {
  const tool = (server: string, name: string): AgentTool => ({
    modelName: `${server}__${name}`,
    server,
    name,
    description: name,
    modelDescription: name,
    inputSchema: { type: "object" },
    modelInputSchema: { type: "object" },
    tier: "read_only",
    tierReason: "test",
    notes: [],
  });
  const host: ToolHost = {
    list: () => [tool("fs", "read"), tool("fs", "write"), tool("web", "fetch")],
    call: () => Promise.reject(new Error("not called")),
  };

  it("takes a server or one tool out of the model's offer for the session, and puts it back", () => {
    const narrowed = new NarrowedToolHost(host);
    const offered = () =>
      narrowed
        .list()
        .filter((entry) => entry.withheld === undefined)
        .map((entry) => entry.modelName);
    expect(narrowed.hide("fs")).toEqual({
      ok: true,
      text: "The tools of fs are no longer offered to the model this session (1 tool still is); /tools show fs offers them again.",
    });
    expect(offered()).toEqual(["web__fetch"]);
    expect(narrowed.list()[0]?.withheld).toBe("hidden for this session (/tools show fs)");
    expect(narrowed.hide("web", "fetch").ok).toBe(true);
    expect(offered()).toEqual([]);
    expect(narrowed.show("fs").ok).toBe(true);
    expect(offered()).toEqual(["fs__read", "fs__write"]);
    expect(narrowed.show("all").ok).toBe(true);
    expect(offered()).toHaveLength(3);
    expect(narrowed.hide("nope")).toEqual({
      ok: false,
      text: 'There is no server named "nope" with tools (servers: fs, web).',
    });
    expect(narrowed.hide("fs", "nope")).toMatchObject({
      ok: false,
      text: 'Server "fs" has no tool named "nope".',
    });
  });
});
