import { describe, expect, it } from "vitest";
import { renderApp } from "../support/app-harness.js";

describe("the prompt with mentions and server completions", () => {
  it("applies completions a server sends later, unless the person typed on meanwhile", async () => {
    const { controller, press, until, prompt } = await renderApp();
    let answer: (words: string[]) => void = () => undefined;
    controller.words = new Promise((resolve) => {
      answer = resolve;
    });
    await press("/everything:completable-prompt Eng");
    await until(() => prompt() === "/everything:completable-prompt Eng", "the typed command");
    await press("\t");
    answer(["Engineering"]);
    await until(() => prompt() === "/everything:completable-prompt Engineering", "the late completion");

    let late: (words: string[]) => void = () => undefined;
    controller.words = new Promise((resolve) => {
      late = resolve;
    });
    await press("A", "\t", "x");
    late(["Alice"]);
    await until(() => prompt() === "/everything:completable-prompt Engineering Ax", "the typed key");
    await controller.words;
    expect(prompt()).toBe("/everything:completable-prompt Engineering Ax");
  });

  it("completes @server: without a space, so the URI can follow", async () => {
    const { controller, press, until, prompt } = await renderApp();
    controller.words = ["@everything:"];
    await press("read @ev", "\t");
    await until(() => prompt() === "read @everything:", "the server completed");
    controller.words = ["@everything:demo://resource/static/document/architecture.md"];
    await press("demo", "\t");
    await until(
      () => prompt() === "read @everything:demo://resource/static/document/architecture.md",
      "the URI completed",
    );
  });

  it("puts a message that could not be sent back into an empty prompt", async () => {
    const { controller, press, until, prompt } = await renderApp();
    await press("see @nope:x://y");
    await until(() => prompt() === "see @nope:x://y", "the typed message");
    await press("\r");
    await until(() => controller.submitted.length === 1 && prompt() === "", "the message sent");
    controller.unsent?.("see @nope:x://y");
    await until(() => prompt() === "see @nope:x://y", "the message back in the prompt");

    await press("\r");
    await until(() => controller.submitted.length === 2 && prompt() === "", "the message sent again");
    await press("something new");
    await until(() => prompt() === "something new", "a new draft");
    controller.unsent?.("see @nope:x://y");
    // The draft the person is writing is never replaced.
    await press("!");
    await until(() => prompt() === "something new!", "the draft kept");
  });

  it("draws the attachments under the user's message", async () => {
    const { frame } = await renderApp([
      {
        type: "turn_start",
        turn: 1,
        input: "compare them",
        at: "2026-01-01T00:00:00Z",
        attached: {
          attachments: [
            {
              kind: "resource",
              server: "everything",
              name: "demo://a",
              detail: "text/markdown, 3,120 characters",
            },
          ],
          forModel: "",
        },
      },
    ]);
    expect(frame()).toMatch(
      /› compare them\n {2}⎘ @everything:demo:\/\/a · text\/markdown, 3,120 characters/,
    );
  });
});
