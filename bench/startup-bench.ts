/**
 * Start-up, as ratios against floors measured in the same run, each repeat interleaved with its
 * floor so a change in the machine's load falls on both:
 *
 * - `--version` and `--help`: wall time from spawn to exit (and CPU seconds for `--version`),
 *   against `node -e 0`.
 * - `-p`: from spawn to the scripted model server receiving the first request, against `node -e 0`;
 *   and the same against a server whose `GET /v1/models` never answers (the context-window probe
 *   must not hold the first request back), against the same floor.
 * - the TUI's first prompt frame in a tmux pane (120x40): from starting the pane to a capture
 *   showing the prompt marker and the status line's server count, against `node -e` printing the
 *   same two things in the same harness; and the same frame with three stdio servers, one of which
 *   answers nothing for 5 s, against the frame with none; and, as a control, with three servers
 *   that cost nothing to start (`sleep`), which never answer; and the no-server frame again in
 *   a fresh tmux server per run, read with `tmux capture-pane`, the way the issue measured it.
 *
 *   npx tsx bench/startup-bench.ts [--quick]
 */
import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { compileFixtures } from "../test/support/compiled-fixtures.js";
import { fixtureLaunch } from "../test/support/fixtures.js";
import { startScriptedModelServer } from "../test/support/scripted-model-server.js";
import { figureOf, type Figure } from "./lib/figures.js";
import { freshTmuxFrame } from "./lib/fresh-tmux.js";
import { reapMarked, runTimed } from "./lib/proc.js";
import { runSuite } from "./lib/suite.js";
import { Tmux } from "./lib/tmux.js";
import { CLI, PaneRun, execLine, idle, promptDrawn, tempProject, tuiArgv, type Project } from "./lib/tui.js";

const NODE = process.execPath;
/** What the floor prints: the two things the frame check looks for, and nothing else. */
const FLOOR_FRAME = `process.stdout.write("╭─╮\\n│ › │\\n╰─╯\\nbench · no servers\\n"); setInterval(() => {}, 1e9);`;
const SLOW_SERVER_MS = 5000;

/** Each round runs every case once, starting one later each round, so none always goes first. */
async function interleaved(
  rounds: number,
  cases: Record<string, () => Promise<number>>,
): Promise<Record<string, number[]>> {
  const names = Object.keys(cases);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (let index = 0; index < names.length; index += 1) {
      const name = names[(index + round) % names.length] ?? "";
      const run = cases[name];
      if (run) samples[name]?.push(await run());
    }
  }
  return samples;
}

await runSuite("startup", { quickSeconds: 55, fullSeconds: 1200 }, async ({ quick, defer }) => {
  const rounds = quick ? 2 : 10;
  const frameRounds = quick ? 1 : 8;
  const fixtures = await compileFixtures();
  defer(() => rm(fixtures, { recursive: true, force: true }));
  // When each request reached the model server, on this process's clock.
  const requestTimes: number[] = [];
  const model = await startScriptedModelServer(() => {
    requestTimes.push(performance.now());
    return { text: "ok" };
  });
  defer(() => model.close());
  const bare = await tempProject(model.baseUrl);
  defer(() => bare.remove());
  // A model listing that never answers: nothing is remembered of it, so every run asks again.
  const stalledTimes: number[] = [];
  const stalled = await startScriptedModelServer(
    () => {
      stalledTimes.push(performance.now());
      return { text: "ok" };
    },
    { stallModels: true },
  );
  defer(() => stalled.close());
  const stalledListing = await tempProject(stalled.baseUrl);
  defer(() => stalledListing.remove());
  const marker = randomUUID();
  const launch = fixtureLaunch(marker);
  const threeServers = await tempProject(model.baseUrl, {
    one: launch,
    two: launch,
    slow: { ...launch, env: { FIXTURE_STARTUP_DELAY_MS: String(SLOW_SERVER_MS) } },
  });
  defer(() => threeServers.remove());
  // A control: three servers that cost no CPU to start (they never answer), to tell mcpterm
  // waiting for servers apart from the machine being busy starting three node processes.
  const idleServer = { command: "sh", args: ["-c", "sleep 60; :", marker] };
  const threeIdle = await tempProject(model.baseUrl, { one: idleServer, two: idleServer, three: idleServer });
  defer(() => threeIdle.remove());
  const tmux = await Tmux.start();
  defer(() => tmux.close());

  const exitTimes = { wall: {} as Record<string, number[]>, cpu: {} as Record<string, number[]> };
  const timed = (name: string, argv: string[]) => async (): Promise<number> => {
    const { wallMs, cpuSeconds } = await runTimed(argv, { cwd: bare.dir, env: bare.env });
    (exitTimes.cpu[name] ??= []).push(cpuSeconds);
    return wallMs;
  };
  // A one-shot run, from spawn to the model server receiving its request (logged in `times`).
  const toFirstRequest =
    (times: readonly number[], args: readonly string[], project: Project) => async (): Promise<number> => {
      const before = times.length;
      const run = await runTimed([NODE, CLI, ...args, "-p", "hello"], { cwd: project.dir, env: project.env });
      const requestedAt = times[before];
      if (requestedAt === undefined) throw new Error("mcpterm -p exited without asking the model");
      return requestedAt - run.startedAt;
    };
  const oneShot = toFirstRequest(requestTimes, ["--no-kb"], bare);
  // As a person types it: the knowledge base on, in a folder that has no knowledge folder.
  const oneShotAsTyped = toFirstRequest(requestTimes, [], bare);
  const oneShotStalled = toFirstRequest(stalledTimes, ["--no-kb"], stalledListing);
  const cases = {
    node: timed("node", [NODE, "-e", "0"]),
    version: timed("version", [NODE, CLI, "--version"]),
    help: timed("help", [NODE, CLI, "--help"]),
    oneShot,
    oneShotAsTyped,
    oneShotStalled,
  };
  // One untimed run of each first, so the first timed one does not pay for a cold file cache.
  for (const warm of Object.values(cases)) await warm();
  exitTimes.cpu = {};
  exitTimes.wall = await interleaved(rounds, cases);

  let sessions = 0;
  const frame =
    (project: Project, argv: string[], isFloor: boolean, drawn = promptDrawn) =>
    async (): Promise<number> => {
      const run = await PaneRun.start(
        tmux,
        `frame-${(sessions += 1)}`,
        execLine(project.env, argv),
        project.dir,
      );
      try {
        const { at } = await run.waitFor(drawn, `the first prompt frame of ${argv.slice(1).join(" ")}`);
        return at - run.startedAt;
      } finally {
        if (isFloor) await run.kill();
        else await run.exit();
        await reapMarked(marker);
      }
    };
  const frames = await interleaved(frameRounds, {
    floor: frame(bare, [NODE, "-e", FLOOR_FRAME], true),
    none: frame(bare, tuiArgv(false), false),
    three: frame(threeServers, tuiArgv(true), false),
    idle: frame(threeIdle, tuiArgv(true), false),
    ink: frame(bare, tuiArgv(false), false, idle),
  });

  // The same frame the way the issue measured it: a fresh tmux server per run, read by spawning
  // `tmux capture-pane`. It counts tmux's own start, on both sides.
  const fresh = await interleaved(quick ? 1 : 6, {
    floor: () => freshTmuxFrame(execLine(bare.env, [NODE, "-e", FLOOR_FRAME]), bare.dir, promptDrawn),
    none: () => freshTmuxFrame(execLine(bare.env, tuiArgv(false)), bare.dir, promptDrawn),
  });

  const wall = exitTimes.wall;
  const nodeFloor = { label: "node -e 0", samples: wall.node ?? [] };
  const figures: Figure[] = [
    figureOf({
      name: "--version, spawn to exit",
      unit: "ms",
      samples: wall.version ?? [],
      floor: nodeFloor,
      target: { kind: "ratio-at-most", value: 2 },
    }),
    figureOf({
      name: "--help, spawn to exit",
      unit: "ms",
      samples: wall.help ?? [],
      floor: nodeFloor,
      target: { kind: "ratio-at-most", value: 2 },
    }),
    figureOf({
      name: "--version, CPU (user+sys)",
      unit: "ms",
      samples: (exitTimes.cpu.version ?? []).map((seconds) => seconds * 1000),
      floor: { label: "node -e 0", samples: (exitTimes.cpu.node ?? []).map((seconds) => seconds * 1000) },
      target: { kind: "none" },
      note: "clock ticks of 10 ms, read from the parent shell's cutime+cstime",
    }),
    figureOf({
      name: "-p, spawn to first model request",
      unit: "ms",
      samples: wall.oneShot ?? [],
      floor: nodeFloor,
      target: { kind: "ratio-at-most", value: 5 },
    }),
    figureOf({
      name: "-p, first model request, without --no-kb",
      unit: "ms",
      samples: wall.oneShotAsTyped ?? [],
      floor: nodeFloor,
      target: { kind: "ratio-at-most", value: 5 },
      note: "`mcpterm -p hello` as typed, in a folder without a knowledge folder",
    }),
    figureOf({
      name: "-p, first model request, /v1/models stalled",
      unit: "ms",
      samples: wall.oneShotStalled ?? [],
      floor: nodeFloor,
      target: { kind: "ratio-at-most", value: 5 },
      note: "the endpoint's model listing never answers: the context-window probe runs beside the request",
    }),
    figureOf({
      name: "first prompt frame (tmux), no servers",
      unit: "ms",
      samples: frames.none ?? [],
      floor: { label: "node -e printing the marker, same harness", samples: frames.floor ?? [] },
      target: { kind: "ratio-at-most", value: 4 },
    }),
    figureOf({
      name: "Ink's first frame (TUI ready), no servers",
      unit: "ms",
      samples: frames.ink ?? [],
      floor: { label: "node -e printing the marker, same harness", samples: frames.floor ?? [] },
      target: { kind: "none" },
      note: "the frame that replaces the early one (src/ui/terminal/early-frame.ts): the key hints show",
    }),
    figureOf({
      name: "first prompt frame, a fresh tmux per run",
      unit: "ms",
      samples: fresh.none ?? [],
      floor: { label: "node -e printing the marker, a fresh tmux per run", samples: fresh.floor ?? [] },
      target: { kind: "ratio-at-most", value: 4 },
      note: "as the issue measured it: tmux started for each run and read with `tmux capture-pane`, so tmux's own start is on both sides",
    }),
    figureOf({
      name: "first prompt frame, 3 servers (one 5 s slow)",
      unit: "ms",
      samples: frames.three ?? [],
      floor: { label: "the same frame with no servers", samples: frames.none ?? [] },
      target: { kind: "ratio-at-most", value: 1.1 },
      note: '"does not move": within 10 % of the frame with no servers',
    }),
    figureOf({
      name: "first prompt frame, 3 servers that never answer",
      unit: "ms",
      samples: frames.idle ?? [],
      floor: { label: "the same frame with no servers", samples: frames.none ?? [] },
      target: { kind: "none" },
      note: "a control: `sh -c 'sleep 60'` as servers start no node, so what remains is mcpterm's own",
    }),
  ];
  return figures;
});
