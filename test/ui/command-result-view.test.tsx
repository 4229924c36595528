import { render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import type { CommandContext, CommandResult } from "../../src/core/commands/command-types.js";
import { resumeCommand } from "../../src/core/commands/resume-command.js";
import { displayWidth } from "../../src/core/text/index.js";
import { CommandResultView } from "../../src/ui/transcript/CommandResultView.js";
import { ThemeContext, themeFor } from "../../src/ui/parts/theme.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function frameOf(result: CommandResult, width: number): string[] {
  const app = render(
    <ThemeContext.Provider value={themeFor({ NO_COLOR: "1" })}>
      <CommandResultView input="/kb search 回滚" result={result} width={width} />
    </ThemeContext.Provider>,
  );
  cleanups.push(() => app.unmount());
  return (app.lastFrame() ?? "").split("\n");
}

/** The display column at which `cell` starts on `line`, or -1. */
const columnOf = (line: string, cell: string): number =>
  line.includes(cell) ? displayWidth(line.slice(0, line.indexOf(cell))) : -1;

describe("CommandResultView tables", () => {
  it("lines up a CJK /kb search table by display width, not by character count", () => {
    const rows = [
      ["1", "部署/回滚步骤.md:1-12", "3.20", "先停止服务"],
      ["2", "deploy.md:4-9", "2.75", "rollback"],
      ["3", "知识库/日本語.md:20-31", "1.10", "テキスト 👨‍👩‍👧‍👦"],
    ];
    const lines = frameOf(
      { kind: "table", title: "Knowledge base: 回滚", columns: ["#", "passage", "score", "excerpt"], rows },
      100,
    );
    const header = lines.find((line) => line.includes("passage")) ?? "";
    const scoreAt = columnOf(header, "score");
    const excerptAt = columnOf(header, "excerpt");
    expect(scoreAt).toBeGreaterThan(0);
    for (const [, passage = "", score = "", excerpt = ""] of rows) {
      const line = lines.find((candidate) => candidate.includes(passage)) ?? "";
      expect(columnOf(line, score), line).toBe(scoreAt);
      expect(columnOf(line, excerpt), line).toBe(excerptAt);
    }
  });

  it("shortens a long name in the middle and keeps the next column in place", () => {
    const name = `server-${"长".repeat(30)}-tail`;
    const lines = frameOf(
      {
        kind: "table",
        title: "Tools",
        columns: ["server", "tool", "reason"],
        rows: [
          [name, "search", "readOnlyHint"],
          ["fs", "read", "name: read"],
        ],
      },
      100,
    );
    const long = lines.find((line) => line.includes("server-")) ?? "";
    // 48 columns: 23 of the start, the ellipsis, 23 of the end (a 24th would split a 长), a space.
    expect(long).toBe(`server-${"长".repeat(8)}…${"长".repeat(9)}-tail   search  readOnlyHint`);
    expect(columnOf(long, "search")).toBe(columnOf(lines.find((line) => line.includes("fs")) ?? "", "read"));
  });

  it("keeps each saved session's id whole in /resume's list, a long first message wrapping", async () => {
    const ids = ["20261205-094902-447-40e987", "20261205-091133-021-9ab3c1"];
    const sessions = {
      list: () =>
        Promise.resolve(
          ids.map((id) => ({
            id,
            modified: new Date(2026, 11, 5, 9, 49),
            first: "look through the deploy logs of last week and tell me which service failed first",
            turns: 3,
            readable: true,
          })),
        ),
      resume: () => Promise.resolve({ ok: false as const, reason: "not here" }),
    };
    const result = await resumeCommand.run({ sessions } as unknown as CommandContext, [], "/resume");
    for (const width of [100, 80]) {
      const lines = frameOf(result, width);
      for (const id of ids)
        expect(
          lines.some((line) => line.includes(id)),
          lines.join("\n"),
        ).toBe(true);
    }
  });

  it("keeps the leading columns whole when the last one wraps (the /help case)", () => {
    const usage = "/trace [turn] | wire [server] | export <file>";
    const lines = frameOf(
      {
        kind: "table",
        title: "Commands",
        columns: ["command", "what it does"],
        rows: [
          ["/help", "list the commands and the keys"],
          [usage, "the last turn (or turn n) as a tree, the raw JSON-RPC frames, or a copy of the trace"],
        ],
      },
      100,
    );
    expect(lines.some((line) => line.startsWith(usage))).toBe(true);
    const described = lines.find((line) => line.startsWith(usage)) ?? "";
    expect(columnOf(described, "the last turn")).toBe(
      columnOf(lines.find((line) => line.startsWith("/help")) ?? "", "list"),
    );
  });

  it("with wholeCells, gives syntax too wide for its column a line of its own, uncut", () => {
    const usage = `/mcp [${["info", "logs", "restart", "login", "logout"].map((sub) => `${sub} <server>`).join(" | ")}]`;
    const lines = frameOf(
      {
        kind: "table",
        title: "Commands",
        columns: ["command", "what it does"],
        wholeCells: true,
        rows: [
          ["/help", "list the commands and the keys"],
          [usage, "server status"],
        ],
      },
      100,
    );
    const at = lines.findIndex((line) => line.trimEnd() === usage);
    expect(at).toBeGreaterThan(0);
    expect(columnOf(lines[at + 1] ?? "", "server status")).toBe(
      columnOf(lines.find((line) => line.startsWith("/help")) ?? "", "list"),
    );
  });
});
