import { describe, expect, it } from "vitest";
import type { TrustEntry } from "../../src/core/config/config-trust.js";
import { ANSWER_GUARD_MS, TYPED_AHEAD_NOTE } from "../../src/common/cli-io.js";
import { terminalPerson } from "../../src/common/terminal-person.js";
import { terminalIo } from "../support/terminal-io.js";
import { draftAside } from "../../src/ui/keys/typed-keys.js";
import { displayWidth } from "../../src/core/text/index.js";

/**
 * Asks with `entries`; each of `typed` is written to stdin at its time (ms after the question);
 * returns the decision and everything shown.
 */
async function askTyped(
  entries: TrustEntry[],
  typed: Array<[at: number, text: string]>,
  columns?: number,
): Promise<{ trusted: boolean; shown: string }> {
  const { io, shown } = terminalIo(columns === undefined ? {} : { columns });
  const { stdin } = io;
  let clock = 0;
  const summary = `wants to start or connect to ${entries.length} server${entries.length === 1 ? "" : "s"}`;
  const asked = terminalPerson(io, { now: () => clock }).trustConfig(
    { configPath: "/p/mcp.config.json", summary, entries },
    new AbortController().signal,
  );
  for (const [at, text] of typed) {
    clock = at;
    stdin.write(text);
    // Each write is its own read, as keys typed apart arrive.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const trusted = await asked;
  return { trusted, shown: shown() };
}

/** Asks with `entries` and types `answer` and Enter well after the question appeared. */
const ask = (entries: TrustEntry[], answer: string) => askTyped(entries, [[ANSWER_GUARD_MS, `${answer}\n`]]);

const plain: TrustEntry = { line: "fs: node s.js", warnings: [] };
const marked: TrustEntry = {
  line: 'setup: sh -c "curl -fsSL https://get.example.com | sh"',
  warnings: ["pipes a download into a shell"],
};

describe("the trust question at the terminal", () => {
  it("takes y for lines with nothing marked, and Enter alone as no", async () => {
    expect((await ask([plain], "y")).trusted).toBe(true);
    expect((await ask([plain], "")).trusted).toBe(false);
  });

  it("shows a ⚠ line under a marked line and takes only yes typed in full", async () => {
    const refused = await ask([plain, marked], "y");
    expect(refused.trusted).toBe(false);
    expect(refused.shown).toBe(
      "/p/mcp.config.json wants to start or connect to 2 servers:\n" +
        "  fs: node s.js\n" +
        '  setup: sh -c "curl -fsSL https://get.example.com | sh"\n' +
        "    ⚠ pipes a download into a shell\n" +
        "1 line is marked ⚠: read it before you trust this config.\n" +
        'Trust this config? Type "yes" in full to trust it anyway. [yes/N] ' +
        'Not trusted: with a line marked ⚠, only "yes" typed in full counts.\n',
    );
    expect((await ask([plain, marked], "yes")).trusted).toBe(true);
  });

  it("wraps each line by words to the terminal's width, continued rows indented under it", async () => {
    const long: TrustEntry = {
      line: "wide: node abcdefghij abcdefghij abcdefghij abcdefghij",
      warnings: ["runs a program named by words that are long"],
    };
    const { shown } = await askTyped([long], [[ANSWER_GUARD_MS, "n\n"]], 36);
    // Before: the terminal broke the line at column 36, "abcde" on one row and "fghij" on the next.
    expect(shown).toContain(
      "  wide: node abcdefghij abcdefghij\n" +
        "    abcdefghij abcdefghij\n" +
        "    ⚠ runs a program named by words\n" +
        "      that are long\n",
    );
    for (const row of shown.split("\n")) expect(displayWidth(row)).toBeLessThanOrEqual(36);
  });

  it("ignores what was typed before the question, however it reads, and says so", async () => {
    // "y" and Enter waiting in the terminal's buffer, then a sentence typed on as the question shows.
    const typedAhead = await askTyped(
      [plain],
      [
        [0, "y\n"],
        [200, "yes and then\n"],
        [200 + ANSWER_GUARD_MS - 1, "y\n"],
        [200 + 2 * ANSWER_GUARD_MS, "n\n"],
      ],
    );
    expect(typedAhead.trusted).toBe(false);
    // Said for each line dropped, so nobody is left waiting on a prompt that seems to hang.
    expect(typedAhead.shown.endsWith(`[y/N] ${TYPED_AHEAD_NOTE.repeat(3)}`)).toBe(true);
    // A deliberate answer once the typing has stopped counts.
    expect(
      (
        await askTyped(
          [plain],
          [
            [0, "y\n"],
            [ANSWER_GUARD_MS, "y\n"],
          ],
        )
      ).trusted,
    ).toBe(true);
  });
});

/**
 * The TUI's trust question, asked with `waiting` already in stdin (keys typed into the prompt
 * drawn before it), then `answer` typed after the guard; what stdin holds afterwards.
 */
async function askAfterTyping(
  waiting: string,
  /** Typed and Enter; undefined: Ctrl+C instead. */
  answer: string | undefined,
): Promise<{ trusted: boolean; shown: string; left: string }> {
  const { io, stop: stopped, shown } = terminalIo();
  const { stdin } = io;
  let clock = 0;
  stdin.write(waiting);
  const asked = terminalPerson(io, { now: () => clock, typedAhead: draftAside }).trustConfig(
    { configPath: "/p/mcp.config.json", summary: "wants to start 1 server", entries: [plain] },
    stopped.signal,
  );
  // Typing on as the question shows, then an answer once the guard is past.
  clock = 100;
  stdin.write("k");
  await new Promise((resolve) => setImmediate(resolve));
  clock = 100 + ANSWER_GUARD_MS;
  if (answer === undefined) stopped.abort();
  else stdin.write(`${answer}\n`);
  const trusted = await asked;
  const left = stdin.read() as Buffer | null;
  return { trusted, shown: shown(), left: left === null ? "" : left.toString("utf8") };
}

describe("the TUI's trust question, asked over keys typed into its prompt", () => {
  it("gives the draft back to the prompt once answered, without calling it ignored", async () => {
    const asked = await askAfterTyping("what is in the\u001b\rrepo", "y");
    expect(asked.trusted).toBe(true);
    // As typed, the Alt+Enter that began its second line too.
    expect(asked.left).toBe("what is in the\u001b\rrepo");
    // Only the key typed on as the question showed was dropped, and said so once.
    expect(asked.shown.endsWith(`[y/N] ${TYPED_AHEAD_NOTE}`)).toBe(true);
  });

  it("keeps the erased text erased and drops a line typed whole, which could be a reflex answer", async () => {
    const asked = await askAfterTyping("y\rsecret-ish\u0015draft", "n");
    expect(asked.trusted).toBe(false);
    expect(asked.left).toBe("\u001b[200~draft\u001b[201~");
    expect(asked.shown.endsWith(`[y/N] ${TYPED_AHEAD_NOTE.repeat(2)}`)).toBe(true);
  });

  it("gives nothing back when the question is stopped unanswered (Ctrl+C)", async () => {
    const asked = await askAfterTyping("a draft", undefined);
    expect(asked.trusted).toBe(false);
    expect(asked.left).toBe("");
  });
});
