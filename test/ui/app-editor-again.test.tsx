import { describe, expect, it } from "vitest";
import type { EditResult, Suspend } from "../../src/common/external-editor.js";
import { renderApp } from "../support/app-harness.js";

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
