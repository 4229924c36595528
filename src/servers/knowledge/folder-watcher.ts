import { watch, type FSWatcher } from "node:fs";
import { IGNORE_FILES } from "../../core/kb/ignore-rules.js";

/** How long the folder must be quiet before it is re-read: an editor's save is several events. */
export const WATCH_DEBOUNCE_MS = 250;

export interface FolderWatch {
  /** Stops watching; resolves once a re-read already under way has finished. */
  close(): Promise<void>;
}

/**
 * Calls `onChange` once the folder `dir` (and everything below it) has been quiet for
 * `WATCH_DEBOUNCE_MS` after a change. Hidden entries (`.git`, an editor's swap files) are not
 * documents and do not count. `onChange` never runs twice at once; a change during a run
 * schedules one more. A folder that cannot be watched is reported to `onError` once.
 */
export function watchFolder(
  dir: string,
  onChange: () => Promise<void>,
  onError: (message: string) => void,
): FolderWatch {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const run = (): void => {
    timer = undefined;
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = onChange()
      .catch((error: unknown) => onError(error instanceof Error ? error.message : String(error)))
      .finally(() => {
        running = undefined;
        if (again && !closed) {
          again = false;
          schedule();
        }
      });
  };
  const schedule = (): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, WATCH_DEBOUNCE_MS);
  };

  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dir, { recursive: true }, (_event, name) => {
      const file = name ?? "";
      const parts = file.split(/[\\/]/);
      // The ignore files decide what is a document, so they count; other hidden entries do not.
      const ignoreFile = parts.length === 1 && IGNORE_FILES.some((ignored) => ignored === file);
      if (!ignoreFile && parts.some((part) => part.startsWith("."))) return;
      schedule();
    });
    watcher.on("error", (error) => {
      onError(`stopped watching ${dir} for changes: ${error.message}`);
      watcher?.close();
    });
  } catch (error) {
    onError(
      `cannot watch ${dir} for changes (${error instanceof Error ? error.message : String(error)}); restart serve after editing documents.`,
    );
  }

  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      watcher?.close();
      await running;
    },
  };
}
