import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { tempDir } from "../support/fixtures.js";

/** Records printed by the child before the kill: enough turns that the kill lands mid-run. */
const RECORDS_BEFORE_KILL = 200;

describe("a trace written at the end of each turn", () => {
  it("loses at most the record in flight when the process is killed with SIGKILL", async () => {
    const file = path.join(await tempDir(), "trace.jsonl");
    const child = spawn(process.execPath, [compiledFixture("trace-writer"), file], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = once(child, "exit");
    let announced = 0;
    let buffered = "";
    await new Promise<void>((resolve) => {
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split("\n");
        buffered = lines.pop() ?? "";
        for (const line of lines) announced = Number(line);
        if (announced >= RECORDS_BEFORE_KILL && child.exitCode === null) {
          // The child keeps recording while the signal travels: the kill lands mid-turn.
          child.kill("SIGKILL");
          resolve();
        }
      });
    });
    const [, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect(signal).toBe("SIGKILL");

    const lines = (await readFile(file, "utf8")).split("\n");
    // The file ends with a whole line: no record was cut in half.
    expect(lines.pop()).toBe("");
    const records = lines.map(
      (line) => JSON.parse(line) as { type: string; n?: number; at?: number; callId?: string },
    );
    expect(records[0]?.type).toBe("session_start");
    const events = records.filter((record) => record.type === "event").map((record) => record.n);
    const frames = records.filter((record) => record.type === "wire").map((record) => record.at);
    const results = records.filter((record) => record.type === "raw_result").map((record) => record.callId);
    // Every record of every turn the child finished is there, in order; what came after the
    // last number it printed may or may not be.
    const finished = Array.from({ length: announced }, (_, index) => index + 1);
    expect(events.slice(0, announced)).toEqual(finished);
    expect(frames.slice(0, announced)).toEqual(finished);
    expect(results.slice(0, announced)).toEqual(finished.map((n) => `call_${n}`));
    // ...and each turn's three records were written together, so none is left half-recorded.
    expect(new Set([events.length, frames.length, results.length]).size).toBe(1);
  });
});
