import { describe, expect, it } from "vitest";
import { renderApp, TURN_START } from "../support/app-harness.js";

describe("messages typed during a turn", () => {
  it("are sent to the controller, shown as queued, taken back with ↑ and sent when the queue is held", async () => {
    const { store, controller, until, press, frame, prompt } = await renderApp([TURN_START]);
    controller.busy = true;
    await press("check the logs");
    await press("\r");
    await until(() => controller.submitted.length === 1, "the message to be sent");
    expect(controller.submitted).toEqual(["check the logs"]);
    expect(prompt()).toBe("");
    // The controller queues it and says so.
    controller.queued = ["check the logs"];
    store.dispatch({
      type: "ui_queue",
      queue: { messages: [{ id: 1, text: "check the logs" }], held: false },
    });
    await until(() => frame().includes("⏵ queued: check the logs"), "the queued message under the live area");
    expect(frame()).not.toContain("still running");
    expect(frame().indexOf("⏵ queued")).toBeLessThan(frame().lastIndexOf("› "));
    await press("\u001b[A");
    await until(() => prompt() === "check the logs", "↑ to take the message back into the prompt");
    expect(controller.queued).toEqual([]);

    // Esc cancels the turn; the held queue waits, and Enter on an empty prompt sends the next.
    await press("\u0015", "\u001b");
    await until(() => controller.cancelled === 1, "Esc to cancel the turn");
    store.dispatch({
      type: "turn_end",
      turn: 1,
      reason: "aborted",
      answer: "",
      steps: 1,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      deniedCalls: 0,
    });
    store.dispatch({ type: "ui_queue", queue: { messages: [{ id: 2, text: "later" }], held: true } });
    controller.busy = false;
    await until(() => frame().includes("held since the turn was cancelled"), "the held queue");
    await press("\r");
    await until(() => controller.sentQueued === 1, "Enter to send the next queued message");
  });

  it("held after Esc, are not dropped by one Ctrl+D: the first asks, saying what the second loses", async () => {
    const { store, exits, until, press, frame } = await renderApp();
    store.dispatch({
      type: "ui_queue",
      queue: {
        messages: [
          { id: 1, text: "q1" },
          { id: 2, text: "q2" },
        ],
        held: true,
      },
    });
    await until(() => frame().includes("held since the turn was cancelled"), "the held queue");
    await press("\u0004");
    await until(() => frame().includes("2 queued messages are not sent"), "the hint");
    expect(exits()).toBe(0);
    await press("\u0004");
    await until(() => exits() > 0, "the second Ctrl+D to exit");
  });

  it("held after Esc, are named by the first Ctrl+C too, before a second one exits", async () => {
    const { store, exits, until, press, frame } = await renderApp();
    store.dispatch({ type: "ui_queue", queue: { messages: [{ id: 1, text: "q1" }], held: true } });
    await until(() => frame().includes("held since the turn was cancelled"), "the held queue");
    await press("\u0003");
    await until(
      () => frame().includes("Press Ctrl+C again to exit; the queued message is not sent"),
      "the hint",
    );
    expect(exits()).toBe(0);
  });
});
