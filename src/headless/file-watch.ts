import { statSync, watch, type FSWatcher } from "node:fs";
import path from "node:path";

/** Folders whose changes never mean the server changed: dependencies, history, mcpterm's own files. */
const IGNORED_FOLDERS = new Set(["node_modules", ".git", ".mcpterm"]);

export interface Watcher {
  close(): void;
}

/**
 * Watches files and folders (folders with everything below them) and reports each changed path.
 * A file is watched through its folder, so an editor that saves by writing a new file and
 * renaming it over the old one is still seen. Throws for a path that does not exist.
 */
export function watchPaths(
  paths: readonly string[],
  onChange: (file: string) => void,
  onError: (message: string) => void,
): Watcher {
  const files = new Map<string, Set<string>>();
  const watchers: FSWatcher[] = [];
  const add = (watcher: FSWatcher, where: string): void => {
    watcher.on("error", (error) => onError(`cannot watch ${where} any more: ${error.message}`));
    watchers.push(watcher);
  };
  for (const target of paths) {
    if (statSync(target).isDirectory()) {
      add(
        watch(target, { recursive: true }, (_event, name) => {
          if (name === null || name.split(path.sep).some((part) => IGNORED_FOLDERS.has(part))) return;
          onChange(path.join(target, name));
        }),
        target,
      );
      continue;
    }
    const folder = path.dirname(target);
    const names = files.get(folder) ?? new Set<string>();
    names.add(path.basename(target));
    files.set(folder, names);
  }
  for (const [folder, names] of files) {
    add(
      watch(folder, (_event, name) => {
        if (name !== null && names.has(name)) onChange(path.join(folder, name));
      }),
      folder,
    );
  }
  return {
    close: () => {
      for (const watcher of watchers) watcher.close();
    },
  };
}
