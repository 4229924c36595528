import { describe, expect, it } from "vitest";
import type { EditResult, Suspend } from "../../src/common/external-editor.js";
import { APPROVAL_GUARD_MS } from "../../src/ui/keys/approval-guard.js";
import { asking, renderApp, TURN_START } from "../support/app-harness.js";

/**
 * The external editor opened twice in a row: once the terminal is back from the first, Ctrl+G
 * opens it again at once, even while the first edit's own clean-up (removing its temporary
 * folder, slow on a busy machine) has not finished.
 */
describe("Ctrl+G right after the editor closed", () => {
  it("opens the editor again while the first edit is still cleaning up", async () => {
    const { press, until, prompt, controller } = await renderApp();
    let opened = 0;
    let back = 0;
    let finishCleanUp: () => void = () => undefined;
    const cleanedUp = new Promise<void>((resolve) => (finishCleanUp = resolve));
    Object.assign(controller, {
      editText: async (text: string, suspend: Suspend): Promise<EditResult> => {
        opened += 1;
        const result = await suspend(() => Promise.resolve({ ok: true, text: `${text} (edited)` }));
        back += 1;
        await cleanedUp;
        return result;
      },
    });
    await press("draft");
    await until(() => prompt() === "draft", "the draft");
    await press("\u0007");
    await until(() => prompt() === "draft (edited)" && back === 1, "the first edit, the terminal back");
    await press("\u0007");
    await until(() => prompt() === "draft (edited) (edited)", "the second edit, the first still cleaning up");
    expect(opened).toBe(2);
    finishCleanUp();
  });
});

/**
 * A call asked about while the external editor had the terminal: its panel was known to the App
 * but never drawn, so the person meets it only when the editor closes. The guard runs from then:
 * the first key after the editor (y, or the Enter meant to send the edit) decides nothing.
 */
describe("an approval that came while the editor was open", () => {
  it("is guarded from when the terminal comes back, not from when it was asked", async () => {
    const { press, until, prompt, controller, store, advance, frame } = await renderApp([TURN_START]);
    let back = false;
    Object.assign(controller, {
      editText: async (_text: string, suspend: Suspend): Promise<EditResult> => {
        const result = await suspend(async () => {
          // In the editor: the model proposes a dangerous call, which the App takes in (the
          // test's terminal draws on, so its frame says when), and the person edits on a while.
          for (const event of asking("c1")) store.dispatch(event);
          await until(() => frame().includes("Allow this call?"), "the App to take the call in");
          advance(5 * APPROVAL_GUARD_MS);
          // Saved empty: the prompt is empty when the terminal comes back.
          return { ok: true, text: "" };
        });
        back = true;
        return result;
      },
    });
    await press("\u0007");
    await until(() => back, "the terminal back from the editor");
    await press("y", "\r");
    // Typing, as any key during the guard: into the prompt, deciding nothing.
    expect(controller.answers).toEqual([]);
    await until(() => prompt() === "y", "the y in the prompt");
    await press("\u0015");
    await until(() => prompt() === "", "Ctrl+U to clear it");
    advance(APPROVAL_GUARD_MS);
    await press("y");
    await until(() => controller.answers.length === 1, "y, once the panel was seen for the guard's time");
    expect(controller.answers).toEqual([{ kind: "once" }]);
  });
});
