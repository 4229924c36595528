import { render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { displayWidth } from "../../src/core/text/index.js";
import { ThemeContext, themeFor } from "../../src/ui/parts/theme.js";
import { ToolPanel } from "../../src/ui/transcript/ToolPanel.js";
import type { ToolCallView } from "../../src/ui/transcript/transcript-types.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function call(args: Record<string, unknown>, extra: Partial<ToolCallView> = {}): ToolCallView {
  return {
    callId: "c1",
    number: 1,
    label: "fixture/write_note",
    tool: "write_note",
    server: "fixture",
    tier: "dangerous",
    tierReason: "destructiveHint",
    args,
    rawArguments: JSON.stringify(args),
    problem: undefined,
    state: "proposed",
    progress: undefined,
    toolNotes: [],
    askReason: undefined,
    askOrdinal: undefined,
    decision: undefined,
    result: undefined,
    ...extra,
  };
}

function frameOf(view: ToolCallView, expanded = false): string {
  const app = render(
    <ThemeContext.Provider value={themeFor({ NO_COLOR: "1" })}>
      <ToolPanel call={view} expanded={expanded} width={100} />
    </ThemeContext.Provider>,
  );
  cleanups.push(() => app.unmount());
  return app.lastFrame() ?? "";
}

describe("ToolPanel", () => {
  it("summarizes CJK arguments to the panel's edge, whole characters only, without invisible formatting", () => {
    const frame = frameOf(call({ text: `\u202e${"日本語".repeat(30)}` }));
    expect(frame).not.toContain("\u202e");
    const header = frame.split("\n")[0] ?? "";
    expect(header).toMatch(/#1 \{"text":"(日本語)+(日本?)?…$/);
    // Not cut at a fixed 60 columns: a wide character at the edge may leave one column free.
    expect(displayWidth(header)).toBeGreaterThanOrEqual(99);
    expect(displayWidth(header)).toBeLessThanOrEqual(100);
  });

  it("says an approved call runs once its step's calls are decided, not that it is starting", () => {
    const approved = call(
      {},
      { state: "approved", decision: { approved: true, by: "user", reason: "asked" } },
    );
    expect(frameOf(approved)).toContain("approved by user, runs once the step's calls are decided");
  });

  it("shows the first non-blank line of a failure", () => {
    const failed = call(
      {},
      {
        state: "failed",
        result: {
          ok: false,
          forModel: "\n  错误：文件不存在  \ndetails",
          display: "\n  错误：文件不存在  \ndetails",
          truncated: false,
          durationMs: 3,
          failure: "business",
          redactions: [],
        },
      },
    );
    expect(frameOf(failed)).toMatch(/^ {2}✗ failed \(business\): 错误：文件不存在$/m);
  });

  const MISMATCH =
    "The structuredContent does not match the tool's outputSchema at /temperature: it must be number.";

  function done(result: Partial<NonNullable<ToolCallView["result"]>>): ToolCallView {
    return call(
      {},
      {
        state: "done",
        result: {
          ok: true,
          forModel: "",
          display: "",
          truncated: false,
          durationMs: 3,
          failure: undefined,
          redactions: [],
          ...result,
        },
      },
    );
  }

  it("flags a result that breaks its outputSchema under the state, collapsed and expanded", () => {
    const view = done({
      display: '{"temperature":"warm"}',
      structured: '{\n  "temperature": "warm"\n}',
      outputSchemaProblem: MISMATCH,
    });
    const collapsed = frameOf(view);
    expect(collapsed).toMatch(/✓ done in 3 ms\n {2}⚠ The structuredContent does not match/);
    expect(collapsed).toContain('⎿ {"temperature":"warm"}');
    const expanded = frameOf(view, true);
    expect(expanded).toContain(`⚠ ${MISMATCH}`);
    expect(expanded).toMatch(
      /result \(1 line\):\n\s*\{"temperature":"warm"\}\n\s*structured content \(3 lines\):\n\s*\{\n\s*"temperature": "warm"\n\s*\}/,
    );
  });

  it("previews a result that is only structured content on one line, and shows only the structure", () => {
    const view = done({ structured: '{\n  "city": "Lisbon",\n  "days": [1, 2]\n}' });
    expect(frameOf(view)).toContain('⎿ structured: { "city": "Lisbon", "days": [1, 2] }');
    const expanded = frameOf(view, true);
    expect(expanded).toContain("structured content (4 lines):");
    expect(expanded).not.toContain("result (");
  });

  it("names a result's attachments after its first line, cutting the text rather than them", () => {
    const view = done({
      display: `${"word ".repeat(40)}\n[image: image/png, 3.9 KB; not shown to a text-only model]`,
      attachments: ["image/png, 3.9 KB", "audio/wav, 2.0 KB", "application/pdf, 1.0 MB", "image/gif, 10 B"],
    });
    expect(frameOf(view)).toMatch(
      /^ {2}⎿ word word .*… · image\/png, 3\.9 KB · audio\/wav, 2\.0 KB · application\/pdf, 1\.0 MB · 1 more$/m,
    );
  });
});
