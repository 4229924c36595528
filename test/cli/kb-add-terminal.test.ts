import { mkdir, readdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ANSWER_GUARD_MS } from "../../src/common/cli-io.js";
import { CLI, tempDir } from "../support/fixtures.js";
import { TmuxTerminal } from "../support/tmux.js";

let terminal: TmuxTerminal | undefined;

afterEach(() => {
  terminal?.close();
  terminal = undefined;
});

/** `kb add <url>` at a terminal, without --yes: the person is asked before anything is fetched. */
async function askedAndAnswered(answer: string): Promise<{ screen: string; files: string[] }> {
  const dir = await tempDir("mcpterm-kb-add-tty-");
  await mkdir(path.join(dir, "knowledge_base"));
  // 127.0.0.1: nothing listens there for this, and the address guard refuses it once allowed.
  const url = "http://127.0.0.1:9/runbook.html";
  terminal = new TmuxTerminal(`'${process.execPath}' '${CLI}' kb add ${url}; echo "exit=$?"; sleep 60`, {
    cwd: dir,
    columns: 200,
    rows: 20,
  });
  await terminal.waitFor((screen) => screen.includes("[y/N]"), "the question");
  // Lines typed sooner than this after the question are thrown away as typed ahead.
  await new Promise((resolve) => setTimeout(resolve, ANSWER_GUARD_MS + 100));
  terminal.text(answer);
  terminal.keys("Enter");
  const screen = await terminal.waitFor((text) => text.includes("exit="), "the exit code");
  return { screen, files: await readdir(path.join(dir, "knowledge_base")) };
}

describe("mcpterm kb add <url> at a terminal", () => {
  it("asks, and a no fetches nothing (exit 3)", async () => {
    const { screen, files } = await askedAndAnswered("n");
    expect(screen).toContain(
      "Fetch http://127.0.0.1:9/runbook.html (an external call) and add it to the knowledge base? [y/N]",
    );
    expect(screen).toContain("needs your yes");
    expect(screen).toContain("exit=3");
    expect(files).toEqual([]);
  });

  it("asks, and a yes goes on to the fetch, where the address guard still refuses loopback (exit 3)", async () => {
    const { screen, files } = await askedAndAnswered("y");
    expect(screen).toContain("which kb add never fetches");
    expect(screen).toContain("exit=3");
    expect(files).toEqual([]);
  });
});
