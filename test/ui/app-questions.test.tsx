import { describe, expect, it } from "vitest";
import type { ElicitationQuestion } from "../../src/core/person/elicitation.js";
import { formFields } from "../../src/core/person/elicitation-form.js";
import type { SamplingQuestion } from "../../src/core/person/sampling.js";
import { displayWidth } from "../../src/core/text/index.js";
import { APPROVAL_GUARD_MS } from "../../src/ui/keys/approval-guard.js";
import { renderApp, TURN_START, type AppHarness } from "../support/app-harness.js";

const SAMPLING: SamplingQuestion = {
  server: "everything",
  messages: [{ role: "user", text: "Resource context: say hi" }],
  systemPrompt: "You are a helpful test server.",
  modelHints: ["claude-3-sonnet"],
  maxTokens: 100,
  temperature: 0.7,
  model: "scripted",
};

const form = formFields({
  type: "object",
  properties: {
    name: { title: "Name", type: "string", description: "Your full, legal name" },
    email: { title: "Email", type: "string", format: "email" },
    pet: { title: "Pet", type: "string", enum: ["cat", "dog"], enumNames: ["Cats", "Dogs"], default: "cat" },
  },
  required: ["name"],
});
const FORM: ElicitationQuestion = {
  mode: "form",
  server: "everything",
  message: "Please provide inputs",
  fields: "fields" in form ? form.fields : [],
};
const PAGE: ElicitationQuestion = {
  mode: "url",
  server: "everything",
  message: "Please open the link to complete this action.",
  url: "https://login.example.com/authorize?client=mcpterm&state=abc",
  domain: "login.example.com",
};

const DOWN = "\u001b[B";

async function ask(
  harness: AppHarness,
  id: number,
  what: SamplingQuestion | ElicitationQuestion,
  title: string,
) {
  harness.controller.askQuestion(
    "mode" in what ? { kind: "elicitation", id, question: what } : { kind: "sampling", id, question: what },
  );
  await harness.until(() => harness.frame().includes(title), `the panel "${title}"`);
}

describe("server questions in the App", () => {
  it("a sampling request that appears while the person types: the typing stays in the prompt and decides nothing", async () => {
    const harness = await renderApp([TURN_START]);
    const { controller, press, advance, until, frame, prompt } = harness;
    await press("I was writing ");
    await ask(harness, 1, SAMPLING, "asks to use the model");
    expect(frame()).toContain("system: You are a helpful test server.");
    expect(frame()).toContain("user: Resource context: say hi");
    expect(frame()).toContain("scripted answers · at most 100 tokens · temperature 0.7");
    expect(frame()).toContain("The server would prefer: claude-3-sonnet");
    expect(frame()).toMatch(/› 1\. Deny \(n\)/);
    // Letters that are shortcuts, digits and Enter, typed on as the panel appears, and a paste: all typing.
    for (const chunk of ["yes ", "e", "n", "d 1", "\r", "\u001b[200~y\r\u001b[201~"]) {
      advance(100);
      await press(chunk);
    }
    expect(controller.questionAnswers).toEqual([]);
    // The paste's CR is a line break in the draft, as in any paste.
    await until(() => prompt() === "I was writing yes end 1y\n", "the typing in the prompt");
    // After a pause, ↓↓↓ then Enter choose Send (below Deny), once a pause after the move; the draft stays.
    advance(APPROVAL_GUARD_MS);
    await press(DOWN, DOWN, DOWN);
    await until(() => /› 4\. Send it/.test(frame()), "the focus on Send");
    await press("\r");
    expect(controller.questionAnswers).toEqual([]);
    advance(APPROVAL_GUARD_MS);
    await press("\r");
    await until(() => controller.questionAnswers.length === 1, "the answer");
    expect(controller.questionAnswers).toEqual([
      { id: 1, answer: { kind: "sampling", answer: { approved: true } } },
    ]);
    expect(prompt()).toBe("I was writing yes end 1y\n");
    await until(() => !frame().includes("asks to use the model"), "the panel to go once answered");
  });

  it("a question that comes while a call waits for approval waits below it, then gets its own guard", async () => {
    const harness = await renderApp([TURN_START]);
    const { controller, press, advance, until, frame, prompt, store, ask: askApproval } = harness;
    await askApproval("c1");
    controller.askQuestion({ kind: "sampling", id: 1, question: SAMPLING });
    await until(() => frame().includes('then server "everything" asks to use the model'), "the waiting line");
    expect(frame()).toContain("Allow this call?");
    advance(APPROVAL_GUARD_MS);
    await press("n");
    await until(() => controller.answers.length === 1, "the denial");
    store.dispatch({
      type: "approval_decided",
      callId: "c1",
      approved: false,
      by: "user",
      reason: "denied",
      tier: "dangerous",
      tierReason: "destructiveHint",
      argumentSecrets: [],
    });
    await until(
      () => frame().includes("asks to use the model") && !frame().includes("Allow this call?"),
      "the sampling panel",
    );
    // The y comes right after the panel appeared: it is typing, not an answer.
    await press("y");
    await until(() => prompt() === "y", "y in the prompt");
    expect(controller.questionAnswers).toEqual([]);
    await press("\u0015");
    advance(APPROVAL_GUARD_MS);
    await press("y");
    await until(() => controller.questionAnswers.length === 1, "the answer");
    expect(controller.questionAnswers[0]?.answer).toEqual({ kind: "sampling", answer: { approved: true } });
  });

  it("a form: filled in field by field, a problem shown under its field, accepted only after a pause", async () => {
    const harness = await renderApp([TURN_START]);
    const { controller, press, advance, until, frame } = harness;
    await ask(harness, 1, FORM, "asks you to fill in a form");
    expect(frame()).toMatch(/› Name \*: /);
    expect(frame()).toContain("Your full, legal name");
    expect(frame()).toContain("Pet: Cats");
    expect(frame()).toMatch(/\[ Accept \] +\[ Decline \] +\[ Cancel \]/);
    advance(APPROVAL_GUARD_MS);
    await press("Ada", "\t", "ada-at-example");
    await press("\t");
    await until(() => frame().includes("✗ Email must be an email address"), "the email's problem");
    await press("\u001b[Z", "\u0015", "ada@example.com", "\t");
    await until(() => !frame().includes("✗ Email"), "the problem gone once fixed");
    await until(() => frame().includes("Cats  ( ) 2 Dogs"), "the choices of the focused field");
    await press("\u001b[C", "\r", "\r");
    expect(controller.questionAnswers).toEqual([]);
    advance(APPROVAL_GUARD_MS);
    await press("\r");
    await until(() => controller.questionAnswers.length === 1, "the answer");
    expect(controller.questionAnswers[0]).toEqual({
      id: 1,
      answer: {
        kind: "elicitation",
        answer: { action: "accept", content: { name: "Ada", email: "ada@example.com", pet: "dog" } },
      },
    });
  });

  it("a form field that asks for a secret carries a warning before anything is typed", async () => {
    const secretForm = formFields({ type: "object", properties: { password: { type: "string" } } });
    const harness = await renderApp([TURN_START]);
    await ask(
      harness,
      6,
      { ...FORM, fields: "fields" in secretForm ? secretForm.fields : [] },
      "asks you to fill in a form",
    );
    expect(harness.frame()).toContain(
      "⚠ this looks like a secret; the MCP spec forbids servers to ask for one in a form",
    );
  });

  it("a web page: the domain on its own line and the whole address; y after a pause opens it, Esc cancels", async () => {
    const harness = await renderApp([TURN_START]);
    const { controller, press, advance, until, frame } = harness;
    await ask(harness, 1, PAGE, "asks you to open a web page");
    expect(frame()).toMatch(/Domain: +login\.example\.com/);
    expect(frame()).toContain("Address: https://login.example.com/authorize?client=mcpterm&state=abc");
    expect(frame()).toMatch(/› 1\. Decline \(n\)/);
    await press("y");
    expect(controller.questionAnswers).toEqual([]);
    await press("\u007f");
    advance(APPROVAL_GUARD_MS);
    await press("y");
    await until(() => controller.questionAnswers.length === 1, "the answer");
    expect(controller.questionAnswers[0]?.answer).toEqual({
      kind: "elicitation",
      answer: { action: "accept", content: {} },
    });
    await ask(harness, 2, PAGE, "asks you to open a web page");
    await press("\u001b");
    await until(() => controller.questionAnswers.length === 2, "Esc to cancel");
    expect(controller.questionAnswers[1]?.answer).toEqual({
      kind: "elicitation",
      answer: { action: "cancel" },
    });
  });

  it("a sampling request too long for its panel is printed whole above it", async () => {
    const harness = await renderApp([TURN_START], { rows: 30 });
    const long = Array.from({ length: 40 }, (_, index) => `line ${index + 1}`).join("\n");
    await ask(harness, 1, { ...SAMPLING, messages: [{ role: "user", text: long }] }, "asks to use the model");
    await harness.until(() => harness.frame().includes("is printed above this panel"), "the note");
    await harness.until(
      () => harness.app.frames.some((frame) => frame.includes("in full") && frame.includes("  line 40")),
      "the whole request printed",
    );
  });

  it("fits a 40-column window: no line wider, the answers in fewer words", async () => {
    const harness = await renderApp([TURN_START], { columns: 40 });
    await ask(harness, 1, SAMPLING, "asks to use the");
    const frame = harness.frame();
    expect(frame).toMatch(/3\. Edit, then send \(e\)/);
    expect(frame).toMatch(/2\. Deny, saying why \(d\)/);
    expect(frame.split("\n").every((line) => displayWidth(line) <= 40)).toBe(true);
  });
});
