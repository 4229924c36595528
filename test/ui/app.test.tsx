import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { ApprovalPanel } from "../../src/ui/panels/ApprovalPanel.js";
import type { ToolCallView } from "../../src/ui/transcript/transcript-types.js";
import { APPROVAL_GUARD_MS } from "../../src/ui/keys/approval-guard.js";
import { INITIAL_APPROVAL_FOCUS } from "../../src/ui/keys/approval-choices.js";
import { proposed, renderApp, TURN_START } from "../support/app-harness.js";

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
      toolNotes: [],
      askReason: undefined,
      askOrdinal: undefined,
      decision: undefined,
      result: undefined,
    };
    const { lastFrame } = render(
      <ApprovalPanel
        call={call}
        width={100}
        position={undefined}
        focus={INITIAL_APPROVAL_FOCUS}
        reason={undefined}
        draft={false}
        maxArgLines={40}
      />,
    );
    const frame = lastFrame() ?? "";
    expect(frame).toContain("fixture/write_note #3");
    expect(frame).toContain('"name": "a.md"');
    expect(frame).toContain('"one",');
    expect(frame).toContain("dangerous: destructiveHint");
    expect(frame).toMatch(/^│ › 1\. Deny \(n\)/m);
    expect(frame).toMatch(/^│ {3}2\. Deny and tell the model why \(d\)/m);
    expect(frame).toMatch(/^│ {3}3\. Approve once \(y\)/m);
    expect(frame).toMatch(/^│ {3}4\. Always allow fixture\/write_note this session \(a\)/m);
    expect(frame).toMatch(
      /^│ {3}5\. Always allow fixture\/write_note in this project \(saved in your settings\) \(p\)/m,
    );
    expect(frame).toContain("Esc deny");
  });

  it("says why it asks, naming an argument that holds a secret (masked) and its kind", () => {
    const call: ToolCallView = {
      callId: "c2",
      number: 1,
      label: "hostile/send_message",
      tool: "send_message",
      server: "hostile",
      tier: "external",
      tierReason: "openWorldHint",
      args: { to: "eve@example.com", body: "my key is [REDACTED]" },
      rawArguments: "",
      problem: undefined,
      state: "awaiting_approval",
      progress: undefined,
      toolNotes: [],
      askReason: "the arguments hold a secret: body (openai-api-key); check it before it leaves",
      askOrdinal: 1,
      decision: undefined,
      result: undefined,
    };
    const { lastFrame } = render(
      <ApprovalPanel
        call={call}
        width={100}
        position={undefined}
        focus={INITIAL_APPROVAL_FOCUS}
        reason={undefined}
        draft={false}
        maxArgLines={40}
      />,
    );
    const frame = (lastFrame() ?? "").replace(/\s*\n│?\s*/g, " ");
    expect(frame).toContain(
      "Asked because the arguments hold a secret: body (openai-api-key); check it before it leaves.",
    );
    expect(frame).toContain('"body": "my key is [REDACTED]"');
  });

  it("writes out characters that draw as nothing, so hidden text cannot pass unseen", () => {
    const hidden = Array.from("rm -rf", (c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
    const call: ToolCallView = {
      callId: "c3",
      number: 1,
      label: "fixture/write_note",
      tool: "write_note",
      server: "fixture",
      tier: "dangerous",
      tierReason: undefined,
      args: { name: "a.md", text: `hello\u200b${hidden}` },
      rawArguments: "",
      problem: undefined,
      state: "awaiting_approval",
      progress: undefined,
      toolNotes: [],
      askReason: undefined,
      askOrdinal: undefined,
      decision: undefined,
      result: undefined,
    };
    const { lastFrame } = render(
      <ApprovalPanel
        call={call}
        width={200}
        position={undefined}
        focus={INITIAL_APPROVAL_FOCUS}
        reason={undefined}
        draft={false}
        maxArgLines={40}
      />,
    );
    const frame = (lastFrame() ?? "").replace(/\s*\n│?\s*/g, "");
    expect(frame).toContain('"text": "hello⟨U+200B⟩⟨U+E0072⟩⟨U+E006D⟩⟨U+E0020⟩');
    expect(frame).not.toMatch(/[\u200b]|\udb40/);
  });

  it("says that shortcut letters type into a draft", () => {
    const call: ToolCallView = {
      callId: "c1",
      number: 1,
      label: "fixture/write_note",
      tool: "write_note",
      server: "fixture",
      tier: "dangerous",
      tierReason: undefined,
      args: {},
      rawArguments: "",
      problem: undefined,
      state: "awaiting_approval",
      progress: undefined,
      toolNotes: [],
      askReason: undefined,
      askOrdinal: undefined,
      decision: undefined,
      result: undefined,
    };
    const { lastFrame } = render(
      <ApprovalPanel
        call={call}
        width={100}
        position={undefined}
        focus={2}
        reason={undefined}
        draft
        maxArgLines={40}
      />,
    );
    expect(lastFrame()).toMatch(/^│ › 3\. Approve once \(y\)/m);
    expect(lastFrame()).toContain("letters and digits type into your draft");
  });
});

describe("App keys", () => {
  it("a stray Enter, typing and pasted text never approve and stay in the prompt; after a pause y approves once", async () => {
    const { controller, until, press, advance, frame, prompt, ask } = await renderApp([TURN_START]);
    await ask("c1");
    advance(100);
    await press("\r");
    advance(100);
    await press("x");
    advance(100);
    await press("\u001b[200~yes please\u001b[201~");
    // press() returns once the App has handled every chunk, so the absence of an answer is meaningful.
    expect(controller.answers).toEqual([]);
    expect(frame()).toContain("Allow this call?");
    await until(() => prompt() === "xyes please", "the typing in the prompt");
    // With a draft in the prompt, y types into it even after a pause.
    advance(APPROVAL_GUARD_MS);
    await press("y");
    await until(() => prompt() === "xyes pleasey", "y typed into the draft");
    expect(controller.answers).toEqual([]);
    await press("\u0015");
    await until(() => prompt() === "", "Ctrl+U to clear the draft");
    advance(APPROVAL_GUARD_MS);
    await press("y");
    await until(() => controller.answers.length > 0, "y to answer the approval");
    expect(controller.answers).toEqual([{ kind: "once" }]);
    await until(() => !frame().includes("Allow this call?"), "the panel to go once answered");
  });

  it("Esc and Ctrl+C deny at once; a always allows after the guard; d and 2+Enter ask for a reason", async () => {
    const { controller, until, press, advance, frame, ask } = await renderApp([TURN_START]);
    await ask("c1");
    await press("\u001b");
    await until(() => controller.answers.length === 1, "Esc to deny");
    await ask("c2");
    await press("\u0003");
    await until(() => controller.answers.length === 2, "Ctrl+C to deny");
    await ask("c3");
    advance(APPROVAL_GUARD_MS);
    await press("a");
    await until(() => controller.answers.length === 3, "a to always allow");
    await ask("c4");
    advance(APPROVAL_GUARD_MS);
    await press("d");
    await until(() => frame().includes("Why (the model reads this)"), "d to ask for a reason");
    await press("not now");
    await until(() => frame().includes("Why (the model reads this): not now"), "the typed reason");
    await press("\u007f", "\u0017", "later");
    await until(() => frame().includes("Why (the model reads this): not later"), "the reason edited");
    await press("\r");
    await until(() => controller.answers.length === 4, "Enter to deny with the reason");
    await ask("c5");
    advance(APPROVAL_GUARD_MS);
    await press("2", "\r");
    await until(() => frame().includes("Why (the model reads this)"), "2 and Enter to ask for a reason");
    await press("\u001b");
    await until(() => controller.answers.length === 5, "Esc to deny without a reason");
    expect(controller.answers).toEqual([
      { kind: "deny" },
      { kind: "deny" },
      { kind: "always" },
      { kind: "deny", reason: "not later" },
      { kind: "deny" },
    ]);
  });

  it("Enter confirms the focused choice, which starts on Deny at the top; ↑ stays there, ↓ moves to approving ones", async () => {
    const { controller, until, press, advance, frame, ask } = await renderApp([TURN_START]);
    await ask("c1");
    advance(APPROVAL_GUARD_MS);
    await press("\r");
    await until(() => controller.answers.length === 1, "Enter to deny");
    await ask("c2");
    advance(APPROVAL_GUARD_MS);
    // ↑ at the top moves nothing: the one ↓ after two ↑ lands on the option just below Deny.
    await press("\u001b[A", "\u001b[A");
    expect(frame()).toMatch(/› 1\. Deny \(n\)/);
    await press("\u001b[B");
    await until(() => /› 2\. Deny and tell the model why/.test(frame()), "↓ to focus deny with a reason");
    await press("\u001b[B");
    await until(() => /› 3\. Approve once/.test(frame()), "↓ to focus approve once");
    // Enter at once takes no yes reached by moving; once the focus stood still, it does.
    await press("\r");
    expect(controller.answers).toHaveLength(1);
    advance(APPROVAL_GUARD_MS);
    await press("\r");
    await until(() => controller.answers.length === 2, "Enter to approve once");
    await ask("c3");
    advance(APPROVAL_GUARD_MS);
    await press("4");
    await until(() => /› 4\. Always allow .* this session/.test(frame()), "4 to focus always allow");
    expect(controller.answers).toHaveLength(2);
    advance(APPROVAL_GUARD_MS);
    await press("\r");
    await until(() => controller.answers.length === 3, "Enter to always allow");
    expect(controller.answers).toEqual([{ kind: "deny" }, { kind: "once" }, { kind: "always" }]);
  });

  it("draws no escape sequence a tool printed, and Ctrl+O toggles the latest panel", async () => {
    const { app, store, until, press, frame } = await renderApp([
      { type: "turn_start", turn: 1, input: "go", at: "2026-01-01T00:00:00Z" },
      { type: "tool_call_proposed", call: proposed("c1", { name: "b.md" }) },
      {
        type: "approval_decided",
        callId: "c1",
        approved: true,
        by: "user",
        reason: "ok",
        tier: "dangerous",
        tierReason: "destructiveHint",
        argumentSecrets: [],
      },
      { type: "tool_started", callId: "c1" },
      {
        type: "tool_result",
        callId: "c1",
        ok: true,
        forModel: "line \u001b[31mred\u001b[0m\u001b]0;title\u0007\nsecond line",
        display: "line \u001b[31mred\u001b[0m\u001b]0;title\u0007\nsecond line",
        truncated: false,
        redactions: [],
        durationMs: 7,
        failure: undefined,
      },
    ]);
    await until(() => app.frames.join("\n").includes("line red (+1 line)"), "the collapsed tool panel");
    const collapsed = app.frames.join("\n");
    expect(collapsed).toContain("fixture/write_note");
    expect(collapsed).toContain("line red (+1 line)");
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
    const { app, controller, until, press, frame, prompt } = await renderApp();
    await press("first\\");
    await until(() => prompt() === "first\\", "the typed line in the prompt");
    await press("\r");
    await until(() => prompt() === "first\n", "Enter after a trailing backslash to start a second line");
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
    const { app, controller, exits, until, press, frame } = await renderApp();
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

  it("Ctrl+D during a turn asks for a second press before it exits and stops the turn", async () => {
    const { exits, until, press, frame, prompt } = await renderApp([TURN_START]);
    await press("\u0004");
    await until(() => frame().includes("Ctrl+D again to exit"), "the hint");
    expect(exits()).toBe(0);
    // Typing in between: Ctrl+D is the editor's again, and exits nothing.
    await press("ab", "\u0001", "\u0004");
    await until(() => prompt() === "b", "Ctrl+A then Ctrl+D to delete the first character");
    expect(exits()).toBe(0);
    await press("\u000b");
    await until(() => prompt() === "", "Ctrl+K to empty the prompt");
    // Two presses in one read: the first asks, the second exits.
    await press("\u0004\u0004");
    await until(() => exits() > 0, "the second Ctrl+D to exit");
    expect(exits()).toBe(1);
  });

  it("does not say Ctrl+D exits under an approval panel that opened after the first press", async () => {
    const { exits, until, press, frame, ask } = await renderApp([TURN_START]);
    await press("\u0004");
    await until(() => frame().includes("Ctrl+D again to exit"), "the hint");
    await ask("c1");
    // At once, within the 2 s the first press holds: the panel's keys alone.
    expect(frame()).toContain("Esc deny");
    expect(frame()).not.toContain("Ctrl+D again");
    await press("\u0004");
    expect(exits()).toBe(0);
  });

  it("Ctrl+D twice exits a turn with the panel inspector open, the hint said there too", async () => {
    const { exits, until, press, frame } = await renderApp([
      TURN_START,
      { type: "tool_call_proposed", call: proposed("c1", { name: "notes.md" }) },
      { type: "tool_started", callId: "c1" },
    ]);
    await press("\u000f");
    await until(() => frame().includes("Esc or Ctrl+O close"), "Ctrl+O to open the inspector");
    await press("\u0004");
    await until(() => frame().includes("Ctrl+D again to exit"), "the hint under the inspector");
    expect(exits()).toBe(0);
    await press("\u0004");
    await until(() => exits() > 0, "the second Ctrl+D to exit");
    expect(exits()).toBe(1);
  });
});
