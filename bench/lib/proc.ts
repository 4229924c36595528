import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { processesMatching, waitForNoProcesses } from "../../test/support/process-table.js";

/** Linux reports CPU time in clock ticks of 1/100 s (getconf CLK_TCK) on every machine we run. */
const TICKS_PER_SECOND = 100;

/** Fields of /proc/<pid>/stat after the command name, which may itself hold spaces and parentheses. */
async function statFields(pid: number): Promise<string[]> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** CPU seconds (user + system) a live process has used so far. */
export async function cpuSeconds(pid: number): Promise<number> {
  const fields = await statFields(pid);
  // utime and stime are fields 14 and 15 of stat(5); the slice starts at field 3.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Resident memory now and at its peak, in MB (MiB), from /proc/<pid>/status. */
export async function memoryMb(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = (field: string): number =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/**
 * Runs a program to its end and measures it: wall time from spawn to exit, and the CPU seconds
 * it used, read from its parent shell's cutime + cstime once it was waited for (a process's CPU
 * cannot be read after it exits). The shell adds the same few milliseconds to every program.
 * `startedAt` is the spawn on the performance.now() clock, for events seen in this process.
 */
export async function runTimed(
  argv: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ startedAt: number; wallMs: number; cpuSeconds: number }> {
  const script = `"$@" >/dev/null; status=$?; cat /proc/$$/stat; exit $status`;
  const started = performance.now();
  const child = spawn("sh", ["-c", script, "sh", ...argv], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timeoutMs = options.timeoutMs ?? 60_000;
  let exitedAt = 0;
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${argv.join(" ")} did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("exit", () => (exitedAt = performance.now()));
    // "close" comes once the shell's output is read too; the clock stopped at "exit".
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve(status);
    });
  });
  const wallMs = exitedAt - started;
  if (code !== 0) {
    throw new Error(`${argv.join(" ")} exited with ${String(code)}: ${stderr.slice(0, 2000)}`);
  }
  const fields = out.slice(out.lastIndexOf(")") + 2).split(" ");
  // cutime and cstime are fields 16 and 17 of stat(5).
  return {
    startedAt: started,
    wallMs,
    cpuSeconds: (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND,
  };
}

/**
 * Makes sure the fixture servers started with `marker` are gone: mcpterm should have stopped them;
 * any still alive are killed (they are this run's) and named, so a leak is seen, not hidden.
 */
export async function reapMarked(marker: string): Promise<void> {
  const alive = await waitForNoProcesses(marker, 10_000);
  if (alive.length === 0) return;
  console.error(`processes left running after mcpterm exited (killed now): ${alive.join(", ")}`);
  for (const pid of processesMatching(marker)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone in the meantime.
    }
  }
}
