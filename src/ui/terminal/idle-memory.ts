import v8 from "node:v8";
import vm from "node:vm";

/**
 * How long the TUI must be quiet (no key, no transcript change) before memory is given back.
 * The collection stops the process for 50-80 ms on a large transcript: long enough a pause that
 * a person is rarely mid-word when it comes.
 */
export const QUIET_MS = 1500;

/**
 * Gives memory back to the system once the TUI falls quiet: each burst of work (a streamed
 * answer, typing, a redraw) grows V8's young generation towards its 32 MB and leaves the old one
 * holding garbage, and V8 only shrinks them on a memory-reducing collection, which nothing in a
 * terminal app ever asks for (a browser's memory reducer does; Node has none). `activity` is
 * called on every key and transcript change; `collect` runs once after `quietMs` of none, and
 * not while `busy` (a turn running), so it never interrupts streaming or typing.
 */
export function idleMemoryRelease(
  collect: () => void,
  options: { quietMs?: number; busy?: () => boolean } = {},
): { activity: () => void; dispose: () => void } {
  const quietMs = options.quietMs ?? QUIET_MS;
  let timer: NodeJS.Timeout | undefined;
  return {
    activity: () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        // Never mid-turn, where a tool or the model may just be slow: the turn's end is a
        // transcript change, which starts the wait again.
        if (options.busy?.() !== true) collect();
      }, quietMs);
      // Never what keeps the process alive.
      timer.unref();
    },
    dispose: () => clearTimeout(timer),
  };
}

/**
 * A full, memory-reducing collection (V8's "last resort": it compacts, shrinks the young
 * generation to its start size and returns free pages), through the `gc` that --expose-gc gives
 * contexts created after it is set, since mcpterm is not started with the flag.
 */
export function memoryReducingCollector(): () => void {
  type Collect = (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;
  let gc: unknown;
  try {
    v8.setFlagsFromString("--expose-gc");
    gc = vm.runInNewContext("typeof gc === 'function' ? gc : undefined");
  } catch {
    gc = undefined;
  }
  // Changing V8's flags after start is not something Node promises to keep working: a Node
  // where it does not gives no collector, and the TUI just keeps the memory V8 keeps.
  if (typeof gc !== "function") return () => undefined;
  const collect = gc as Collect;
  return () => collect({ type: "major", execution: "sync", flavor: "last-resort" });
}
