import { stat } from "node:fs/promises";
import { errorMessage } from "../errors.js";

/**
 * Why a file that must be new (an export: never over a file that is there, never through a
 * link) could not be made at `target`, as the one sentence a person is told. `maker` names what
 * tried (`--otlp`, `/trace export`), so the sentence says what to give it instead.
 */
export async function newFileRefusal(target: string, error: unknown, maker: string): Promise<string> {
  const code = (error as NodeJS.ErrnoException).code;
  // Creating over a folder fails as EEXIST (`wx`, COPYFILE_EXCL), or as EISDIR.
  const folder =
    code === "EISDIR" || (code === "EEXIST" && (await stat(target).catch(() => undefined))?.isDirectory());
  if (folder) return `Cannot write ${target}: it is a folder; give ${maker} a file name.`;
  if (code === "EEXIST")
    return `${target} already exists; ${maker} does not replace a file, so give a new name.`;
  if (code === "ENOENT") return `Cannot write ${target}: its folder does not exist.`;
  return `Cannot write ${target}: ${errorMessage(error)}.`;
}
