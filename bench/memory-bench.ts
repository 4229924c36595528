/**
 * Memory: resident set (VmRSS in /proc/<pid>/status) of the mcpterm process itself, in a tmux
 * pane, at the idle prompt once three stdio servers (the compiled fixture) are connected, and
 * after a scripted session of 200 typed turns with one-line answers; the peak (VmHWM) beside
 * it. The floor, for scale only, is an idle `node` in the same harness; the target is absolute.
 *
 *   npx tsx bench/memory-bench.ts [--quick]
 */
import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { compileFixtures } from "../test/support/compiled-fixtures.js";
import { fixtureLaunch } from "../test/support/fixtures.js";
import { startScriptedModelServer } from "../test/support/scripted-model-server.js";
import { figureOf } from "./lib/figures.js";
import { memoryMb, reapMarked } from "./lib/proc.js";
import { benchReplies, typeTurns } from "./lib/scripted-session.js";
import { runSuite } from "./lib/suite.js";
import { Tmux } from "./lib/tmux.js";
import { PaneRun, execLine, idle, tempProject, tuiArgv } from "./lib/tui.js";

/** Long enough for the work of the last frame or turn to settle before memory is read. */
const SETTLE_MS = 2500;
const IDLE_NODE = `process.stdout.write("idle\\n"); setInterval(() => {}, 1e9);`;

await runSuite("memory", { quickSeconds: 40, fullSeconds: 1800 }, async ({ quick, defer }) => {
  const turns = quick ? 20 : 200;
  const repeats = quick ? 1 : 2;
  const fixtures = await compileFixtures();
  defer(() => rm(fixtures, { recursive: true, force: true }));
  const model = await startScriptedModelServer(benchReplies(new Map()));
  defer(() => model.close());
  const marker = randomUUID();
  const launch = fixtureLaunch(marker);
  const project = await tempProject(model.baseUrl, { one: launch, two: launch, three: launch });
  defer(() => project.remove());
  const tmux = await Tmux.start();
  defer(() => tmux.close());

  const floor: number[] = [];
  const atIdle: number[] = [];
  const afterTurns: number[] = [];
  const peak: number[] = [];
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    const bare = await PaneRun.start(
      tmux,
      `node-${repeat}`,
      execLine(project.env, [process.execPath, "-e", IDLE_NODE]),
      project.dir,
    );
    try {
      await bare.waitFor((screen) => screen.includes("idle"), "the idle node");
      await sleep(SETTLE_MS);
      floor.push((await memoryMb(await bare.pid())).rss);
    } finally {
      await bare.kill();
    }

    const run = await PaneRun.start(
      tmux,
      `memory-${repeat}`,
      execLine(project.env, tuiArgv(true)),
      project.dir,
    );
    try {
      await run.waitFor(
        (screen) => screen.includes("3/3 servers ready") && idle(screen),
        "three servers connected",
      );
      const pid = await run.pid();
      await sleep(SETTLE_MS);
      atIdle.push((await memoryMb(pid)).rss);
      await typeTurns(run, 1, turns);
      await sleep(SETTLE_MS);
      const after = await memoryMb(pid);
      afterTurns.push(after.rss);
      peak.push(after.peak);
    } finally {
      await run.exit();
      await reapMarked(marker);
    }
  }

  const idleNode = { label: "an idle node process, same harness", samples: floor };
  const target = { kind: "at-most", value: 150 } as const;
  return [
    figureOf({
      name: "RSS at the idle prompt, 3 servers connected",
      unit: "MB",
      samples: atIdle,
      floor: idleNode,
      target,
    }),
    figureOf({
      name: `RSS after a ${turns}-turn session`,
      unit: "MB",
      samples: afterTurns,
      floor: idleNode,
      target,
    }),
    figureOf({
      name: `peak RSS over the ${turns}-turn session`,
      unit: "MB",
      samples: peak,
      floor: idleNode,
      target: { kind: "none" },
    }),
  ];
});
