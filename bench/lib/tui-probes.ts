import { open, stat } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { cpuSeconds } from "./proc.js";
import { percentile, sortedCopy } from "./stats.js";
import { idle, type PaneRun } from "./tui.js";

/** Ink opens every frame on a terminal with a synchronized-update sequence. */
const FRAME_START = "\u001b[?2026h";
/** No transcript line starts with these letters, so only the prompt can match what was typed. */
const KEY_CYCLE = "qzxjvk";
/** Typing keeps getting cheaper for some hundreds of keys (the JIT at work): measure after that. */
const WARM_UP_KEYS = 300;

export interface StreamSample {
  wallMs: number;
  cpuSeconds: number;
  bytes: number;
  frames: number;
}

/** The file's size once tmux's pipe has stopped adding to it. */
async function settledSize(file: string): Promise<number> {
  let size = (await stat(file)).size;
  for (;;) {
    await sleep(150);
    const now = (await stat(file)).size;
    if (now === size) return size;
    size = now;
  }
}

async function countFrames(file: string, from: number, to: number): Promise<number> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(to - from);
    await handle.read(buffer, 0, buffer.length, from);
    return buffer.toString("latin1").split(FRAME_START).length - 1;
  } finally {
    await handle.close();
  }
}

/**
 * Sends `message` and waits for the answer ending in `end` with the prompt idle again: wall time
 * from Enter, the mcpterm process's CPU over it, and what it wrote to the terminal (`output` is
 * where the pane's output is piped).
 */
export async function streamOnce(
  run: PaneRun,
  pid: number,
  output: string,
  message: string,
  end: string,
): Promise<StreamSample> {
  await run.sendText(message);
  await run.waitFor((screen) => screen.includes(`› ${message}`), "the message in the prompt");
  const cpuBefore = await cpuSeconds(pid);
  const bytesBefore = await settledSize(output);
  await run.sendKey("Enter");
  const sent = performance.now();
  const { at } = await run.waitFor(
    (screen) => screen.includes(end) && idle(screen),
    "the end of the answer",
    300_000,
  );
  const cpuAfter = await cpuSeconds(pid);
  const bytesAfter = await settledSize(output);
  return {
    wallMs: at - sent,
    cpuSeconds: cpuAfter - cpuBefore,
    bytes: bytesAfter - bytesBefore,
    frames: await countFrames(output, bytesBefore, bytesAfter),
  };
}

/** Keys on the prompt at once: they stay on one line of the 120-column input box. */
const LINE_KEYS = 100;

/**
 * Types `count` keys one at a time, each once the last one shows, clearing the prompt every
 * LINE_KEYS; ms from each key to a capture showing it.
 */
async function typeKeys(run: PaneRun, count: number): Promise<number[]> {
  const latencies: number[] = [];
  let typed = "";
  for (let index = 0; index < count; index += 1) {
    const key = KEY_CYCLE.charAt(index % KEY_CYCLE.length);
    typed += key;
    const shown = typed;
    const sent = performance.now();
    await run.sendText(key);
    const { at } = await run.waitFor((screen) => screen.includes(`› ${shown}`), "a typed key to echo");
    latencies.push(at - sent);
    if (typed.length === LINE_KEYS || index === count - 1) {
      await run.sendKey("C-u");
      await run.waitFor((screen) => !screen.includes(`› ${KEY_CYCLE.charAt(0)}`), "the prompt to clear");
      typed = "";
    }
  }
  return latencies;
}

/**
 * A frame with nothing else going on: each key typed at the idle prompt redraws it once. After
 * untimed keys, `count` keys: the median echo and the mcpterm process's CPU per key (the clearing
 * Ctrl+U every LINE_KEYS keys included).
 */
export async function keystrokes(
  run: PaneRun,
  pid: number,
  count: number,
): Promise<{ echoMs: number; cpuMsPerKey: number }> {
  await typeKeys(run, WARM_UP_KEYS);
  const before = await cpuSeconds(pid);
  const latencies = await typeKeys(run, count);
  const after = await cpuSeconds(pid);
  return { echoMs: percentile(sortedCopy(latencies), 50), cpuMsPerKey: ((after - before) * 1000) / count };
}
