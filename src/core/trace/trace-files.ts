import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../errors.js";

/** Where a project's session traces are written, under its working folder. */
export function traceDir(cwd: string): string {
  return path.join(cwd, ".mcpterm", "traces");
}

/** The most recently written `.jsonl` trace in `dir`, or undefined when there is none (or no folder). */
export async function newestTrace(dir: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith(".jsonl"));
  } catch {
    return undefined;
  }
  const files = await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      return { file, name, modified: (await stat(file)).mtimeMs };
    }),
  );
  // Session ids sort by start time, so the name breaks ties between files written in the same tick.
  files.sort((a, b) => b.modified - a.modified || b.name.localeCompare(a.name));
  return files[0]?.file;
}

/** The trace a command reads: the file named (relative to `cwd`), else the newest in the project. */
export async function resolveTraceFile(file: string | undefined, cwd: string): Promise<string> {
  if (file !== undefined) return path.resolve(cwd, file);
  const dir = traceDir(cwd);
  const newest = await newestTrace(dir);
  if (!newest)
    throw new UsageError(`There are no traces in ${dir}; run a session first or name a trace file.`);
  return newest;
}
