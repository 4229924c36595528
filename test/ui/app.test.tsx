import { render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent, ProposedToolCall } from "../../src/core/agent/events.js";
import { App, type AppController } from "../../src/ui/App.js";
import { ApprovalPanel } from "../../src/ui/ApprovalPanel.js";
import { ThemeContext, themeFor } from "../../src/ui/theme.js";
import { TranscriptStore } from "../../src/ui/transcript-store.js";
import type { ApprovalKey } from "../../src/ui/tui-controller.js";
import type { ToolCallView } from "../../src/ui/transcript-types.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function proposed(id: string, args: Record<string, unknown>): ProposedToolCall {
  return {
    id,
    step: 1,
    modelName: "fixture__write_note",
    server: "fixture",
    tool: "write_note",
    arguments: args,
    rawArguments: JSON.stringify(args),
    tier: "dangerous",
    tierReason: "destructiveHint",
    problem: undefined,
  };
}

class FakeController implements AppController {
  readonly answers: ApprovalKey[] = [];
  readonly submitted: string[] = [];
  cancelled = 0;
  busy = false;
  submit(text: string): void {
    this.submitted.push(text);
  }
  cancel(): boolean {
    if (!this.busy) return false;
    this.cancelled += 1;
    return true;
  }
  answerApproval(key: ApprovalKey): void {
    this.answers.push(key);
  }
  completions(): string[] {
    return ["/help", "/tools", "/trace", "fixture", "write_note"];
  }
}

const tick = (ms = 60): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function setup(events: AgentEvent[] = []): {
  store: TranscriptStore;
  controller: FakeController;
  app: ReturnType<typeof render>;
  exits: () => number;
} {
  const store = new TranscriptStore(undefined, 5);
  for (const event of events) store.dispatch(event);
  const controller = new FakeController();
  let exits = 0;
  const app = render(
    <ThemeContext.Provider value={themeFor({ NO_COLOR: "1" })}>
      <App store={store} controller={controller} onExit={() => (exits += 1)} />
    </ThemeContext.Provider>,
  );
  cleanups.push(() => {
    app.unmount();
    store.dispose();
  });
  return { store, controller, app, exits: () => exits };
}

const asking: AgentEvent[] = [
  { type: "turn_start", turn: 1, input: "write it", at: "2026-01-01T00:00:00Z" },
  { type: "tool_call_proposed", call: proposed("c1", { name: "a.md", text: "hello \u001b[2J world" }) },
  { type: "approval_requested", callId: "c1" },
];

describe("ApprovalPanel", () => {
  it("shows the full sanitized arguments and the keys", () => {
    const call: ToolCallView = {
      callId: "c1",
      number: 3,
      label: "fixture/write_note",
      tool: "write_note",
      server: "fixture",
      tier: "dangerous",
      tierReason: "destructiveHint",
      args: { name: "a.md", nested: { lines: ["one", "two"] } },
      rawArguments: "",
      problem: undefined,
      state: "awaiting_approval",
      progress: undefined,
      decision: undefined,
      result: undefined,
    };
    const { lastFrame } = render(<ApprovalPanel call={call} reason={undefined} maxArgLines={40} />);
    const frame = lastFrame() ?? "";
    expect(frame).toContain("fixture/write_note #3");
    expect(frame).toContain('"name": "a.md"');
    expect(frame).toContain('"one",');
    expect(frame).toContain("dangerous: destructiveHint");
    expect(frame).toMatch(/y approve once · a always allow fixture\/write_note this session · n deny/);
    expect(frame).toContain("d deny and tell the");
    expect(frame).toContain("Esc deny");
  });
});

describe("App keys", () => {
  it("a stray Enter, typing and pasted text never approve; y approves once", async () => {
    const { app, controller } = setup(asking);
    await tick();
    expect(app.lastFrame()).toContain("Allow this call?");
    app.stdin.write("\r");
    app.stdin.write("x");
    app.stdin.write("yes please");
    await tick();
    expect(controller.answers).toEqual([]);
    app.stdin.write("y");
    await tick();
    expect(controller.answers).toEqual([{ kind: "once" }]);
  });

  it("Esc and Ctrl+C deny, a always allows, d sends a typed reason", async () => {
    const { app, controller } = setup(asking);
    await tick();
    app.stdin.write("\u001b");
    await tick(100);
    app.stdin.write("\u0003");
    app.stdin.write("a");
    app.stdin.write("d");
    await tick();
    app.stdin.write("not now");
    await tick();
    expect(app.lastFrame()).toContain("Why (the model reads this): not now");
    app.stdin.write("\r");
    await tick();
    expect(controller.answers).toEqual([
      { kind: "deny" },
      { kind: "deny" },
      { kind: "always" },
      { kind: "deny", reason: "not now" },
    ]);
  });

  it("draws no escape sequence a tool printed, and Ctrl+O toggles the latest panel", async () => {
    const { app, store } = setup([
      { type: "turn_start", turn: 1, input: "go", at: "2026-01-01T00:00:00Z" },
      { type: "tool_call_proposed", call: proposed("c1", { name: "b.md" }) },
      { type: "approval_decided", callId: "c1", approved: true, by: "user", reason: "ok" },
      { type: "tool_started", callId: "c1" },
      {
        type: "tool_result",
        callId: "c1",
        ok: true,
        content: "line \u001b[31mred\u001b[0m\u001b]0;title\u0007\nsecond line",
        truncated: false,
        redactions: [],
        durationMs: 7,
        failure: undefined,
      },
    ]);
    await tick();
    const collapsed = app.frames.join("\n");
    expect(collapsed).toContain("fixture/write_note");
    expect(collapsed).toContain("line red (+1 lines)");
    expect(collapsed).not.toContain("\u001b[31m");
    expect(collapsed).not.toContain("\u001b]0;");
    app.stdin.write("\u000f");
    await tick();
    expect(store.getState().inspector).toBe(0);
    expect(app.lastFrame()).toContain("Inspecting 1/1");
    expect(app.lastFrame()).toContain("second line");
    app.stdin.write("\u000f");
    await tick();
    expect(app.lastFrame()).not.toContain("Inspecting");
  });

  it("sends on Enter, continues a line after a trailing backslash, recalls history and completes commands", async () => {
    const { app, controller } = setup();
    await tick();
    app.stdin.write("first\\");
    await tick();
    app.stdin.write("\r");
    await tick();
    app.stdin.write("second");
    await tick();
    app.stdin.write("\r");
    await tick();
    expect(controller.submitted).toEqual(["first\nsecond"]);
    app.stdin.write("\u001b[A");
    await tick();
    expect(app.lastFrame()).toContain("second");
    // Ctrl+C with text in the prompt clears it rather than arming exit.
    app.stdin.write("\u0003");
    await tick();
    app.stdin.write("/to");
    await tick();
    app.stdin.write("\t");
    await tick();
    expect(app.lastFrame()).toContain("/tools");
  });

  it("Ctrl+C cancels a running turn, and when idle exits on the second press; Ctrl+D exits", async () => {
    const { app, controller, exits } = setup();
    await tick();
    controller.busy = true;
    app.stdin.write("\u0003");
    await tick();
    expect(controller.cancelled).toBe(1);
    controller.busy = false;
    app.stdin.write("\u0003");
    await tick();
    expect(app.lastFrame()).toContain("Press Ctrl+C again to exit");
    expect(exits()).toBe(0);
    app.stdin.write("\u0003");
    await tick();
    expect(exits()).toBe(1);
    app.stdin.write("\u0004");
    await tick();
    expect(exits()).toBe(2);
  });
});
