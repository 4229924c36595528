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
 *   items in between come from typed one-line turns; and at both points, the CPU and echo time of
 *   a keystroke at the idle prompt (one redraw with nothing else going on).
 *
 *   npx tsx bench/streaming-bench.ts [--quick]
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { startScriptedModelServer } from "../test/support/scripted-model-server.js";
import { figureOf, type Figure } from "./lib/figures.js";
import { benchReplies, longAnswer, turnAnswer, turnInput, typeTurns } from "./lib/scripted-session.js";
import { BENCH_DIR, runSuite } from "./lib/suite.js";
import { Tmux } from "./lib/tmux.js";
import { keystrokes, streamOnce, type StreamSample } from "./lib/tui-probes.js";
import { PaneRun, execLine, idle, promptDrawn, tempProject, tuiArgv } from "./lib/tui.js";

const WARM_UP_TOKENS = 2000;
/** Keys typed at each point, for enough CPU ticks (10 ms each) to tell a few percent apart. */
const KEYS = 200;

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
  const keysFew: Array<{ echoMs: number; cpuMsPerKey: number }> = [];
  const keysMany: typeof keysFew = [];
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
      keysFew.push(await keystrokes(run, pid, KEYS));
      few.push(await streamOnce(run, pid, output, "stream a", ends.get("stream a") ?? ""));
      await typeTurns(run, 1, prefillTurns);
      keysMany.push(await keystrokes(run, pid, KEYS));
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
      name: `frame cost streaming, after ~${itemsBeforeSecond} items`,
      unit: "CPU ms/frame",
      samples: many.map(perFrame),
      floor: { label: `the same after ${itemsBeforeFirst} items`, samples: few.map(perFrame) },
      target: { kind: "ratio-at-most", value: 1.1 },
      note: "CPU of the whole answer (reading the stream included) divided by the frames drawn for it",
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
      name: `keystroke frame after ~${itemsBeforeSecond} items`,
      unit: "CPU ms/key",
      samples: keysMany.map((sample) => sample.cpuMsPerKey),
      floor: {
        label: `the same after ${itemsBeforeFirst} items`,
        samples: keysFew.map((sample) => sample.cpuMsPerKey),
      },
      target: { kind: "ratio-at-most", value: 1.1 },
      note: `a frame with nothing else going on: ${KEYS} keys typed at the idle prompt, one redraw each`,
    }),
    figureOf({
      name: `keystroke echo after ~${itemsBeforeSecond} items`,
      unit: "ms",
      samples: keysMany.map((sample) => sample.echoMs),
      floor: {
        label: `the same after ${itemsBeforeFirst} items`,
        samples: keysFew.map((sample) => sample.echoMs),
      },
      target: { kind: "none" },
      note: `median of the ${KEYS} keys, each from send-keys to a capture showing it`,
    }),
  ];
  return figures;
});
