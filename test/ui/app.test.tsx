import { useInput } from "ink";
import { render } from "ink-testing-library";
import { useEffect } from "react";
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

type Rendered = ReturnType<typeof render>;

/**
 * Polls every 10 ms until `check` passes. Ink re-renders (and runs effects) asynchronously, so tests wait
 * for the condition they need rather than sleeping a fixed time, which is flaky on a loaded machine.
 */
async function until(app: Rendered, check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out after ${ms} ms waiting for ${what}. Last frame:\n${app.lastFrame() ?? "(nothing drawn yet)"}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Listens to the same Ink input stream as the App. Ink hands every key to all `useInput` listeners in one
 * synchronous emit, so once the probe has seen a key, the App's handler has run for it too: a positive
 * sign that a key was processed even when it has (and should have) no visible effect.
 */
function KeyProbe({ onInput, onReady }: { onInput: (input: string) => void; onReady: () => void }): null {
  useInput(onInput);
  // Effects run after Ink attached its stdin listener for this commit (the App's included).
  useEffect(() => {
    onReady();
  }, [onReady]);
  return null;
}

async function setup(events: AgentEvent[] = []): Promise<{
  store: TranscriptStore;
  controller: FakeController;
  app: Rendered;
  exits: () => number;
  /** Waits until `check` passes, failing with `what` and the last frame after `ms`. */
  until: (check: () => boolean, what: string, ms?: number) => Promise<void>;
  /** Writes the chunks back to back, then waits until the App has received every one of them. */
  press: (...chunks: string[]) => Promise<void>;
  frame: () => string;
}> {
  const store = new TranscriptStore(undefined, 5);
  for (const event of events) store.dispatch(event);
  const controller = new FakeController();
  let exits = 0;
  const seen: string[] = [];
  let ready = false;
  const onInput = (input: string): void => {
    seen.push(input);
  };
  const onReady = (): void => {
    ready = true;
  };
  const app = render(
    <ThemeContext.Provider value={themeFor({ NO_COLOR: "1" })}>
      <App store={store} controller={controller} onExit={() => (exits += 1)} />
      <KeyProbe onInput={onInput} onReady={onReady} />
    </ThemeContext.Provider>,
  );
  cleanups.push(() => {
    app.unmount();
    store.dispose();
  });
  const wait = (check: () => boolean, what: string, ms?: number): Promise<void> =>
    until(app, check, what, ms);
  const press = async (...chunks: string[]): Promise<void> => {
    const target = seen.length + chunks.length;
    for (const chunk of chunks) app.stdin.write(chunk);
    // A lone Esc is delivered on a later turn of the event loop, so this also keeps it from merging with the next key.
    await wait(
      () => seen.length >= target,
      `the app to receive ${JSON.stringify(chunks)} (received so far: ${JSON.stringify(seen)})`,
    );
  };
  await wait(() => ready && app.lastFrame() !== undefined, "the app to mount and listen for keys");
  return {
    store,
    controller,
    app,
    exits: () => exits,
    until: wait,
    press,
    frame: () => app.lastFrame() ?? "",
  };
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
    const { app, controller, until, press, frame } = await setup(asking);
    await until(() => frame().includes("Allow this call?"), "the approval panel");
    expect(app.lastFrame()).toContain("Allow this call?");
    // press() returns once the App has handled all three, so the absence of an answer below is meaningful.
    await press("\r", "x", "yes please");
    expect(controller.answers).toEqual([]);
    expect(app.lastFrame()).toContain("Allow this call?");
    await press("y");
    await until(() => controller.answers.length > 0, "y to answer the approval");
    expect(controller.answers).toEqual([{ kind: "once" }]);
  });

  it("Esc and Ctrl+C deny, a always allows, d sends a typed reason", async () => {
    const { app, controller, until, press, frame } = await setup(asking);
    await until(() => frame().includes("Allow this call?"), "the approval panel");
    await press("\u001b");
    await until(() => controller.answers.length >= 1, "Esc to deny");
    app.stdin.write("\u0003");
    app.stdin.write("a");
    app.stdin.write("d");
    await until(
      () => controller.answers.length >= 3 && frame().includes("Why (the model reads this)"),
      "Ctrl+C to deny, a to always allow and d to ask for a reason",
    );
    await press("not now");
    await until(() => frame().includes("Why (the model reads this): not now"), "the typed reason");
    expect(app.lastFrame()).toContain("Why (the model reads this): not now");
    await press("\r");
    await until(() => controller.answers.length >= 4, "Enter to deny with the reason");
    expect(controller.answers).toEqual([
      { kind: "deny" },
      { kind: "deny" },
      { kind: "always" },
      { kind: "deny", reason: "not now" },
    ]);
  });

  it("draws no escape sequence a tool printed, and Ctrl+O toggles the latest panel", async () => {
    const { app, store, until, press, frame } = await setup([
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
    await until(() => app.frames.join("\n").includes("line red (+1 lines)"), "the collapsed tool panel");
    const collapsed = app.frames.join("\n");
    expect(collapsed).toContain("fixture/write_note");
    expect(collapsed).toContain("line red (+1 lines)");
    expect(collapsed).not.toContain("\u001b[31m");
    expect(collapsed).not.toContain("\u001b]0;");
    await press("\u000f");
    await until(
      () => store.getState().inspector === 0 && frame().includes("Inspecting 1/1"),
      "Ctrl+O to open the inspector",
    );
    expect(store.getState().inspector).toBe(0);
    expect(app.lastFrame()).toContain("Inspecting 1/1");
    expect(app.lastFrame()).toContain("second line");
    await press("\u000f");
    // The frame showed "Inspecting" until now, so its absence is the visible effect of the second Ctrl+O.
    await until(() => !frame().includes("Inspecting"), "the second Ctrl+O to close the inspector");
    expect(app.lastFrame()).not.toContain("Inspecting");
  });

  it("sends on Enter, continues a line after a trailing backslash, recalls history and completes commands", async () => {
    const { app, controller, until, press, frame } = await setup();
    const promptLine = /│ › (.*)│/;
    const prompt = (): string => (promptLine.exec(frame())?.[1] ?? "").trim();
    await press("first\\");
    await until(() => prompt() === "first\\", "the typed line in the prompt");
    await press("\r");
    await until(() => prompt() === "first", "Enter after a trailing backslash to start a second line");
    await press("second");
    await until(() => frame().includes("second"), "the second line in the prompt");
    await press("\r");
    await until(() => controller.submitted.length > 0, "Enter to send");
    expect(controller.submitted).toEqual(["first\nsecond"]);
    await until(() => prompt() === "" && !frame().includes("second"), "the prompt to clear after sending");
    await press("\u001b[A");
    await until(() => frame().includes("second"), "Up to recall the sent text");
    expect(app.lastFrame()).toContain("second");
    // Ctrl+C with text in the prompt clears it rather than arming exit.
    await press("\u0003");
    await until(() => !frame().includes("second"), "Ctrl+C to clear the prompt");
    expect(app.lastFrame()).not.toContain("Press Ctrl+C again to exit");
    await press("/to");
    await until(() => prompt() === "/to", "the typed command prefix");
    await press("\t");
    await until(() => frame().includes("/tools"), "Tab to complete the command");
    expect(app.lastFrame()).toContain("/tools");
  });

  it("Ctrl+C cancels a running turn, and when idle exits on the second press; Ctrl+D exits", async () => {
    const { app, controller, exits, until, press, frame } = await setup();
    controller.busy = true;
    await press("\u0003");
    await until(() => controller.cancelled > 0, "Ctrl+C to cancel the turn");
    expect(controller.cancelled).toBe(1);
    controller.busy = false;
    await press("\u0003");
    await until(() => frame().includes("Press Ctrl+C again to exit"), "Ctrl+C to arm exit");
    expect(app.lastFrame()).toContain("Press Ctrl+C again to exit");
    expect(exits()).toBe(0);
    await press("\u0003");
    await until(() => exits() > 0, "the second Ctrl+C to exit");
    expect(exits()).toBe(1);
    await press("\u0004");
    await until(() => exits() > 1, "Ctrl+D to exit");
    expect(exits()).toBe(2);
  });
});
