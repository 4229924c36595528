import { execFileSync } from "node:child_process";

/** Pids of live processes whose command line contains `marker` (zombies excluded). */
export function processesMatching(marker: string): number[] {
  const table = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" });
  return table
    .split("\n")
    .map((line) => line.trim().match(/^(\d+)\s+(\S+)\s+(.*)$/))
    .filter((match): match is RegExpMatchArray => match !== null)
    .filter(([, , stat, args]) => !stat?.startsWith("Z") && args?.includes(marker) && !args.startsWith("ps "))
    .map(([, pid]) => Number(pid));
}

/**
 * Waits up to `ms` for every process with `marker` to be gone; returns those still alive. The
 * default is generous because it only matters when something is wrong: a clean run returns at once.
 */
export async function waitForNoProcesses(marker: string, ms = 15_000): Promise<number[]> {
  const deadline = Date.now() + ms;
  let alive = processesMatching(marker);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    alive = processesMatching(marker);
  }
  return alive;
}
