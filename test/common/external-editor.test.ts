import { describe, expect, it } from "vitest";
import { editorCommand, splitWords } from "../../src/common/external-editor.js";

describe("editorCommand", () => {
  it.each([
    [
      { VISUAL: "code --wait", EDITOR: "vim" },
      { command: "code", args: ["--wait"], from: "$VISUAL" },
    ],
    [{ EDITOR: "  nano  " }, { command: "nano", args: [], from: "$EDITOR" }],
    [
      { VISUAL: " ", EDITOR: "emacs -nw" },
      { command: "emacs", args: ["-nw"], from: "$EDITOR" },
    ],
    [{}, { command: "vi", args: [], from: "the default" }],
    [
      { EDITOR: `"/opt/My Editor/edit" -w 'a b'` },
      { command: "/opt/My Editor/edit", args: ["-w", "a b"], from: "$EDITOR" },
    ],
  ])("%j runs %j", (env, expected) => {
    expect(editorCommand(env)).toEqual(expected);
  });
});

describe("splitWords", () => {
  it("splits like a shell but expands and runs nothing", () => {
    expect(splitWords("vim; rm -rf ~ | $(touch x) `id`")).toEqual([
      "vim;",
      "rm",
      "-rf",
      "~",
      "|",
      "$(touch",
      "x)",
      "`id`",
    ]);
    expect(splitWords(String.raw`a\ b "c \"d\"" '' e\\f`)).toEqual(["a b", 'c "d"', "", "e\\f"]);
  });
});
