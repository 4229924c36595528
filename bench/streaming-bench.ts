/**
 * Streaming: one long answer from the scripted model at full speed (every chunk written at once,
 * one token of 4 characters a chunk), rendered by the real TUI in a tmux pane, beside the same
 * stream read by the bare `openai` client in a process of its own:
 *
 * - tokens/s: from Enter to a capture showing the answer's last line and the idle prompt;
 * - CPU seconds of the mcpterm process over that time (/proc/<pid>/stat), of the reader likewise;
 * - bytes written to the terminal, as tmux's pipe-pane hands them over, against the answer's own;
 * - frames drawn: Ink opens each with a synchronized-update sequence (ESC[?2026h), counted here;
 * - frame cost: CPU per frame for the same answer after ~500 transcript items against after only
 *   those of a warm-up turn and a 2,000-token warm-up answer (so neither is the JIT's first); the
 *   items in between come from typed one-line turns; and keystroke echo at both points.
 *
 *   npx tsx bench/streaming-bench.ts [--quick]
 */
import { spawn } from "node:child_process";
import { open, stat } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { startScriptedModelServer } from "../test/support/scripted-model-server.js";
import { figureOf, type Figure } from "./lib/figures.js";
import { cpuSeconds } from "./lib/proc.js";
import { benchReplies, longAnswer, turnAnswer, turnInput, typeTurns } from "./lib/scripted-session.js";
import { BENCH_DIR, runSuite } from "./lib/suite.js";
import { Tmux } from "./lib/tmux.js";
import { PaneRun, execLine, idle, promptDrawn, tempProject, tuiArgv } from "./lib/tui.js";

const FRAME_START = "\u001b[?2026h";
const WARM_UP_TOKENS = 2000;
/** Typed one key at a time; no transcript line starts with these letters, so only the prompt matches. */
const ECHO_KEYS = "qzxjvkqzxj";

interface StreamSample {
  wallMs: number;
  cpuSeconds: number;
  bytes: number;
  frames: number;
}

interface FloorSample {
  wallMs: number;
  cpuMs: number;
  chars: number;
  chunks: number;
}

/** The reader in its own process; resolves with what it printed. */
function readWithOpenAi(baseUrl: string, message: string): Promise<FloorSample> {
  const reader = path.join(BENCH_DIR, "lib/openai-reader.ts");
  const child = spawn(process.execPath, ["--import", "tsx", reader, baseUrl, message], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error("the openai reader did not finish within 120 s"));
    }, 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(out) as FloorSample);
      else reject(new Error(`the openai reader exited with ${String(code)}`));
    });
  });
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

async function streamOnce(
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

/** Milliseconds from sending each key to a capture showing it in the prompt. */
async function echoLatencies(run: PaneRun): Promise<number[]> {
  const samples: number[] = [];
  let typed = "";
  for (const key of ECHO_KEYS) {
    typed += key;
    const sent = performance.now();
    await run.sendText(key);
    const shown = typed;
    const { at } = await run.waitFor((screen) => screen.includes(`› ${shown}`), "a typed key to echo");
    samples.push(at - sent);
  }
  await run.sendKey("C-u");
  await run.waitFor((screen) => !screen.includes(`› ${ECHO_KEYS.charAt(0)}`), "the prompt to clear");
  return samples;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;

await runSuite("streaming", { quickSeconds: 45, fullSeconds: 2400 }, async ({ quick, defer }) => {
  const tokens = quick ? 2000 : 20_000;
  const itemsTarget = quick ? 60 : 500;
  const repeats = quick ? 1 : 3;
  // A shorter answer first warms the same paths, so the first measured answer is not the JIT's first.
  const warmUp = longAnswer(WARM_UP_TOKENS, "w");
  const answers = new Map<string, string>([["stream w", warmUp.text]]);
  const ends = new Map<string, string>([["stream w", warmUp.end]]);
  let paragraphs = 0;
  for (const id of ["a", "b"]) {
    const answer = longAnswer(tokens, id);
    answers.set(`stream ${id}`, answer.text);
    ends.set(`stream ${id}`, answer.end);
    paragraphs = answer.paragraphs;
  }
  const answerBytes = Buffer.byteLength(answers.get("stream a") ?? "");
  const model = await startScriptedModelServer(benchReplies(answers));
  defer(() => model.close());
  const tmux = await Tmux.start();
  defer(() => tmux.close());

  // Each message is an item, and each paragraph of an answer (moved to the transcript as it ends)
  // about one: items before the first measured answer are the warm-up turn's and answer's.
  const itemsBeforeFirst = 2 + 1 + warmUp.paragraphs;
  const prefillTurns = Math.max(0, Math.ceil((itemsTarget - itemsBeforeFirst - 1 - paragraphs) / 2));
  const itemsBeforeSecond = itemsBeforeFirst + 1 + paragraphs + 2 * prefillTurns;

  const floor: FloorSample[] = [];
  const few: StreamSample[] = [];
  const many: StreamSample[] = [];
  const echoFew: number[] = [];
  const echoMany: number[] = [];
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    floor.push(await readWithOpenAi(model.baseUrl, "stream a"));
    const project = await tempProject(model.baseUrl);
    const run = await PaneRun.start(
      tmux,
      `stream-${repeat}`,
      execLine(project.env, tuiArgv(false)),
      project.dir,
    );
    const output = path.join(project.dir, "terminal-output");
    try {
      await run.pipeOutput(output);
      await run.waitFor(promptDrawn, "the prompt");
      const pid = await run.pid();
      await run.submit(turnInput(0));
      await run.waitFor((screen) => screen.includes(turnAnswer(0)) && idle(screen), "the warm-up answer");
      await streamOnce(run, pid, output, "stream w", warmUp.end);
      echoFew.push(median(await echoLatencies(run)));
      few.push(await streamOnce(run, pid, output, "stream a", ends.get("stream a") ?? ""));
      await typeTurns(run, 1, prefillTurns);
      echoMany.push(median(await echoLatencies(run)));
      many.push(await streamOnce(run, pid, output, "stream b", ends.get("stream b") ?? ""));
    } finally {
      await run.exit();
      await project.remove();
    }
    floor.push(await readWithOpenAi(model.baseUrl, "stream a"));
  }
  for (const sample of floor)
    if (sample.chars !== answerBytes)
      throw new Error(`the reader got ${sample.chars} characters, not ${answerBytes}`);

  const count = tokens.toLocaleString("en-US");
  const reader = "bare openai client, own process";
  const perFrame = (sample: StreamSample): number => (sample.cpuSeconds * 1000) / Math.max(1, sample.frames);
  const figures: Figure[] = [
    figureOf({
      name: `streaming ${count} tokens, TUI`,
      unit: "tokens/s",
      samples: few.map((sample) => tokens / (sample.wallMs / 1000)),
      floor: { label: reader, samples: floor.map((sample) => sample.chunks / (sample.wallMs / 1000)) },
      target: { kind: "at-least", value: 2000 },
    }),
    figureOf({
      name: `CPU for the ${count}-token answer`,
      unit: "s",
      samples: few.map((sample) => sample.cpuSeconds),
      floor: { label: reader, samples: floor.map((sample) => sample.cpuMs / 1000) },
      target: { kind: "none" },
    }),
    figureOf({
      name: `bytes written to the terminal, ${count} tokens`,
      unit: "KB",
      samples: few.map((sample) => sample.bytes / 1024),
      floor: { label: "the answer's own bytes", samples: few.map(() => answerBytes / 1024) },
      target: { kind: "none" },
      note: "what tmux's pipe-pane received from the pane between Enter and the idle prompt",
    }),
    figureOf({
      name: `frames drawn for the ${count}-token answer`,
      unit: "frames",
      samples: few.map((sample) => sample.frames),
      target: { kind: "none" },
      note: "synchronized-update openings (ESC[?2026h) in the terminal output",
    }),
    figureOf({
      name: `frame cost after ~${itemsBeforeSecond} items`,
      unit: "CPU ms/frame",
      samples: many.map(perFrame),
      floor: { label: `the same after ${itemsBeforeFirst} items`, samples: few.map(perFrame) },
      target: { kind: "ratio-at-most", value: 1.1 },
      note: "CPU of the whole answer divided by the frames drawn for it",
    }),
    figureOf({
      name: `streaming after ~${itemsBeforeSecond} items`,
      unit: "tokens/s",
      samples: many.map((sample) => tokens / (sample.wallMs / 1000)),
      floor: {
        label: `the same after ${itemsBeforeFirst} items`,
        samples: few.map((sample) => tokens / (sample.wallMs / 1000)),
      },
      target: { kind: "none" },
    }),
    figureOf({
      name: `keystroke echo after ~${itemsBeforeSecond} items`,
      unit: "ms",
      samples: echoMany,
      floor: { label: `the same after ${itemsBeforeFirst} items`, samples: echoFew },
      target: { kind: "none" },
      note: "median of 10 keys per session, each from send-keys to a capture showing it",
    }),
  ];
  return figures;
});
