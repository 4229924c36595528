import { describe, expect, it } from "vitest";
import { APPROVAL_GUARD_MS } from "../../src/ui/keys/approval-guard.js";
import { asking, renderApp, TURN_START } from "../support/app-harness.js";

/** Gaps between keys of a quick typist, in ms: all shorter than the guard, some long pauses between words. */
const GAPS = [90, 140, 210, 120, 350, 80, 260, 170, 480, 110, 60, 300];

/** Sentences full of the shortcut letters, list digits and Enter. */
const SENTENCES = [
  "yes and no, any day: 1 2 3 4 and done\r",
  "dad says y, a, n or d\r",
  "y\ra\rn\rd\r1\r2\r\r",
];

const squash = (text: string): string => text.replace(/\s+/g, "");

describe("typing storm", () => {
  it("approval panels appearing while a person types approve nothing, and every typed letter stays in the prompt", async () => {
    const { store, controller, press, advance, until, frame, prompt, ask } = await renderApp([TURN_START]);
    let gap = 0;
    const typeByteByByte = async (
      sentence: string,
      panelAt: number,
      panel: () => Promise<void>,
    ): Promise<void> => {
      for (let index = 0; index < sentence.length; index++) {
        if (index === panelAt) await panel();
        advance(GAPS[gap++ % GAPS.length] ?? 100);
        await press(sentence.charAt(index));
      }
    };
    const decide = (callId: string): void => {
      // The engine moves on (a timeout, say), so the next call can be asked.
      store.dispatch({
        type: "approval_decided",
        callId,
        approved: false,
        by: "user",
        reason: "timed out",
        tier: "dangerous",
        tierReason: "destructiveHint",
        argumentSecrets: [],
      });
    };

    // The first panel is drawn a few letters into the sentence.
    await typeByteByByte(SENTENCES[0] ?? "", 4, () => ask("c1"));
    expect(controller.answers).toEqual([]);
    expect(frame()).toContain('"name": "c1.md"');
    decide("c1");

    // The second call is reported at the very moment a key arrives, before it could be drawn.
    await typeByteByByte(SENTENCES[1] ?? "", 0, () => {
      for (const event of asking("c2")) store.dispatch(event);
      return Promise.resolve();
    });
    expect(controller.answers).toEqual([]);
    await until(() => frame().includes('"name": "c2.md"'), "the second panel");
    decide("c2");

    // The third: single shortcut keys and Enters, typed as it appears.
    await typeByteByByte(SENTENCES[2] ?? "", 1, () => ask("c3"));

    expect(controller.answers).toEqual([]);
    expect(controller.submitted).toEqual([]);
    const typed = SENTENCES.join("").replaceAll("\r", "");
    await until(() => squash(prompt()) === squash(typed), `the prompt to hold ${JSON.stringify(typed)}`);
    expect(frame()).toContain("Allow this call?");

    // Once the person stops typing, a deliberate choice still works: ↓ ↓, a look, Enter approves once.
    advance(APPROVAL_GUARD_MS);
    await press("\u001b[B", "\u001b[B");
    advance(APPROVAL_GUARD_MS);
    await press("\r");
    await until(() => controller.answers.length === 1, "the deliberate approval");
    expect(controller.answers).toEqual([{ kind: "once" }]);
    expect(squash(prompt())).toBe(squash(typed));
  });
});
