import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { errorMessage } from "../core/errors.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";

/** The editor to run: `$VISUAL`, else `$EDITOR`, else vi; where it came from, for messages. */
export interface EditorCommand {
  command: string;
  args: string[];
  from: "$VISUAL" | "$EDITOR" | "the default";
}

/**
 * Pure: the editor command from the environment, split into words as a shell would split them
 * (`code --wait`, `"/opt/My Editor/bin/edit" -w`), but with no shell: nothing is expanded, and
 * `;`, `|` or `$(…)` in it are just characters of a word.
 */
export function editorCommand(env: NodeJS.ProcessEnv): EditorCommand {
  const visual = env.VISUAL?.trim();
  const editor = env.EDITOR?.trim();
  const [text, from]: [string, EditorCommand["from"]] = visual
    ? [visual, "$VISUAL"]
    : editor
      ? [editor, "$EDITOR"]
      : ["vi", "the default"];
  const [command = "vi", ...args] = splitWords(text);
  return { command, args, from };
}

/** Words of a command line: whitespace between them, '…' literal, "…" with \" and \\, \ escaping one character. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let started = false;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index] ?? "";
    if (quote === "'") {
      if (character === "'") quote = undefined;
      else word += character;
    } else if (quote === '"') {
      if (character === '"') quote = undefined;
      else if (character === "\\" && /["\\]/.test(text[index + 1] ?? "")) word += text[++index] ?? "";
      else word += character;
    } else if (/\s/.test(character)) {
      if (started) words.push(word);
      word = "";
      started = false;
    } else {
      started = true;
      if (character === "'" || character === '"') quote = character;
      else if (character === "\\") word += text[++index] ?? "";
      else word += character;
    }
  }
  if (started) words.push(word);
  return words;
}

/** How every failed edit ends: the draft is the person's, and nothing is lost. */
const PROMPT_KEPT = "the prompt was left as it was.";

type EditorOutcome =
  { code: number | null; signal: NodeJS.Signals | null } | { error: NodeJS.ErrnoException };

export type EditResult = { ok: true; text: string } | { ok: false; reason: string };

/** Hands the terminal over for `run` and takes it back, resolving to what `run` gave. */
export type Suspend = (run: () => Promise<EditResult>) => Promise<EditResult>;

/**
 * Opens the person's editor on `text` in a private temporary file and returns what they saved.
 * `suspend` hands the terminal to it (the TUI's raw mode off, its drawing held) and takes it
 * back after, redrawn; the file is read before the terminal comes back, so a caller can put the
 * edit in place before a key typed after the editor closed is read. The editor's own exit code
 * decides: anything but 0 (`:cq` in vim) keeps the prompt as it was.
 */
export async function editInExternalEditor(
  text: string,
  env: NodeJS.ProcessEnv,
  suspend: Suspend,
): Promise<EditResult> {
  const editor = editorCommand(env);
  let folder: string;
  try {
    folder = await mkdtemp(path.join(os.tmpdir(), "mcpterm-edit-"));
  } catch (error) {
    return {
      ok: false,
      reason: `Could not make a file for the editor (${errorMessage(error)}); ${PROMPT_KEPT}`,
    };
  }
  const file = path.join(folder, "message.md");
  // A closed terminal (SIGHUP) ends mcpterm while the editor is open: the draft goes with it.
  const removeAtExit = (): void => rmSync(folder, { recursive: true, force: true });
  process.once("exit", removeAtExit);
  try {
    try {
      await writeFile(file, text, { mode: 0o600 });
    } catch (error) {
      return {
        ok: false,
        reason: `Could not write the prompt for the editor (${errorMessage(error)}); ${PROMPT_KEPT}`,
      };
    }
    return await suspend(async () => {
      const outcome = await new Promise<EditorOutcome>((resolve) => {
        const child = spawn(editor.command, [...editor.args, file], { stdio: "inherit", env });
        child.once("error", (error) => resolve({ error }));
        child.once("exit", (code, signal) => resolve({ code, signal }));
      });
      return editResult(outcome, editor, file);
    });
  } finally {
    // Removed before the hook is: a closed terminal also ends the editor, and mcpterm may exit
    // while this removal is still under way.
    await rm(folder, { recursive: true, force: true });
    process.off("exit", removeAtExit);
  }
}

async function editResult(outcome: EditorOutcome, editor: EditorCommand, file: string): Promise<EditResult> {
  const named = `the editor ${JSON.stringify(sanitizeForTerminal(editor.command))} (${editor.from})`;
  if ("error" in outcome) {
    const why = outcome.error.code === "ENOENT" ? "it was not found" : outcome.error.message;
    return {
      ok: false,
      reason: `Could not start ${named}: ${why}; set $VISUAL or $EDITOR to an editor that waits until you close the file (e.g. "code --wait").`,
    };
  }
  if (outcome.code !== 0) {
    const how = outcome.signal
      ? `was stopped by ${outcome.signal}`
      : `exited with code ${String(outcome.code)}`;
    return { ok: false, reason: `T${named.slice(1)} ${how}; ${PROMPT_KEPT}` };
  }
  let written: string;
  try {
    written = await readFile(file, "utf8");
  } catch (error) {
    // An editor that saved elsewhere and deleted the file, or left a folder in its place.
    const why =
      (error as NodeJS.ErrnoException).code === "ENOENT"
        ? "it removed the one it was given"
        : errorMessage(error);
    return { ok: false, reason: `T${named.slice(1)} left no file to read back (${why}); ${PROMPT_KEPT}` };
  }
  const edited = written.replace(/\r\n?/g, "\n").replace(/\n$/, "");
  return { ok: true, text: sanitizeForTerminal(edited) };
}
