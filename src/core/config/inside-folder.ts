import { realpathSync } from "node:fs";
import path from "node:path";

/** Whether `target` is `folder` or inside it, symlinks followed as far as they exist. */
export function isInsideFolder(target: string, folder: string): boolean {
  return isWithinPath(realPathOfExisting(target), realPathOfExisting(folder));
}

/** Whether `target` is `folder` or inside it, by path alone: for paths already made real. */
export function isWithinPath(target: string, folder: string): boolean {
  const relative = path.relative(folder, target);
  return !(relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative));
}

/** The real path of the longest part of `target` that exists, with the rest appended. */
function realPathOfExisting(target: string): string {
  const missing: string[] = [];
  let current = path.resolve(target);
  for (;;) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(target);
      missing.push(path.basename(current));
      current = parent;
    }
  }
}
