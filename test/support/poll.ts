import { readFile } from "node:fs/promises";

/**
 * Polls until `file` exists and contains `text`: how a test learns that a run reached a point
 * (say, a tool call started) without guessing a delay. Rejects after `ms`, which is generous
 * because it only matters when the run never gets there.
 */
export async function waitForFileText(file: string, text: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const content = await readFile(file, "utf8").catch(() => "");
    if (content.includes(text)) return;
    if (Date.now() > deadline) throw new Error(`${file} did not come to contain ${text} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Polls until `check` passes, failing with `what` after `ms` (generous: a loaded machine is slow). */
export async function waitFor(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
