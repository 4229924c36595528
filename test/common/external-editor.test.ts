import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { editorCommand, splitWords } from "../../src/common/external-editor.js";
import { tempDir } from "../support/fixtures.js";

const EDITOR_MODULE = fileURLToPath(new URL("../../src/common/external-editor.ts", import.meta.url));

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

describe("editInExternalEditor", () => {
  it("leaves no draft behind when mcpterm exits as the editor ends", async () => {
    // A closed terminal ends the editor and mcpterm together: here mcpterm exits in the first
    // turn of the loop after the editor did, while the draft's folder is being removed.
    const script = `
      const { editInExternalEditor } = await import(${JSON.stringify(EDITOR_MODULE)});
      void editInExternalEditor("the person's draft", { EDITOR: "true" }, async (run) => {
        const result = await run();
        setImmediate(() => process.exit(0));
        return result;
      });
    `;
    const tmp = await tempDir("mcpterm-editor-tmp-");
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      env: { ...process.env, TMPDIR: tmp },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(readdirSync(tmp).filter((name) => name.startsWith("mcpterm-edit-"))).toEqual([]);
  });

  it("says so when no file can be made for the editor, and gives nothing to crash on", async () => {
    const missing = path.join(await tempDir(), "no-such-folder");
    // Set once tsx has loaded: it makes its cache folder in the TMPDIR it starts with.
    const script = `
      const { editInExternalEditor } = await import(${JSON.stringify(EDITOR_MODULE)});
      process.env.TMPDIR = ${JSON.stringify(missing)};
      const result = await editInExternalEditor("the person's draft", { EDITOR: "true" }, (run) => run());
      process.stdout.write(JSON.stringify(result));
    `;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(run.stderr).toBe("");
    const result = JSON.parse(run.stdout) as { ok: boolean; reason?: string };
    expect(result.ok).toBe(false);
    expect(result.reason).toMatch(
      /^Could not make a file for the editor \(ENOENT: [^)]*\); the prompt was left as it was\.$/,
    );
  });
});
