import { copyFile } from "node:fs/promises";
import path from "node:path";
import { compiledFixture } from "./compiled-fixtures.js";

/**
 * Copies the notes fixture (test/fixtures/author-server.ts) into `dir` as notes.js, so a server
 * typed on the command line is named "notes" as an author's would be.
 */
export async function installNotesServer(dir: string): Promise<string> {
  const script = path.join(dir, "notes.js");
  await copyFile(compiledFixture("author-server"), script);
  return script;
}

/**
 * The words after `--` that start the notes server with `bugs` switched on (see the fixture),
 * through `env` as an author would; `marker` finds its processes in the process table.
 */
export function notesCommand(
  script: string,
  marker: string,
  bugs: string[] = [],
  extra: string[] = [],
): string[] {
  return ["env", `AUTHOR_BUG=${bugs.join(",")}`, ...extra, process.execPath, script, `--marker=${marker}`];
}
