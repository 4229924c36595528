import { render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { ThemeContext, themeFor } from "../../src/ui/theme.js";
import { ToolPanel } from "../../src/ui/ToolPanel.js";
import type { ToolCallView } from "../../src/ui/transcript-types.js";

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

function frameOf(view: ToolCallView): string {
  const app = render(
    <ThemeContext.Provider value={themeFor({ NO_COLOR: "1" })}>
      <ToolPanel call={view} expanded={false} width={100} />
    </ThemeContext.Provider>,
  );
  cleanups.push(() => app.unmount());
  return app.lastFrame() ?? "";
}

describe("ToolPanel", () => {
  it("summarizes CJK arguments in 60 columns, whole characters only, without invisible formatting", () => {
    const frame = frameOf(call({ text: `\u202e${"日本語".repeat(30)}` }));
    expect(frame).not.toContain("\u202e");
    expect(frame).toContain(`#1 {"text":"${"日本語".repeat(8)}日…`);
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
});
