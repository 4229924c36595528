import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/core/text/index.js";
import { highlightCode } from "../../src/ui/markdown/highlight-code.js";
import { safeUrl, supportsHyperlinks } from "../../src/ui/parts/hyperlinks.js";
import { Markdown } from "../../src/ui/markdown/Markdown.js";
import { tableWidths } from "../../src/ui/markdown/markdown-table-layout.js";
import { ThemeContext, themeFor } from "../../src/ui/parts/theme.js";
import { render as renderSized } from "../support/ink-render.js";

/** Markdown drawn `width` columns wide, with links as hyperlinks or not. */
function draw(text: string, width: number, env: NodeJS.ProcessEnv = { NO_COLOR: "1" }): string {
  const app = renderSized(
    <ThemeContext.Provider value={themeFor(env)}>
      <Markdown text={text} width={width} />
    </ThemeContext.Provider>,
    { columns: width },
  );
  const frame = app.lastFrame() ?? "";
  app.unmount();
  return frame;
}

const TABLE = [
  "| Tool | Tier | What it does |",
  "|:-----|:----:|-------------:|",
  "| `read_file` | read_only | reads a file and returns its text, whole or in part |",
  "| write_file | **dangerous** | writes text to a path, replacing what was there |",
].join("\n");

describe("Markdown", () => {
  it("renders headings, lists, emphasis and code without the markup", () => {
    const { lastFrame } = render(
      <Markdown
        text={
          "# Title\n\nSome **bold**, *em* and `code` & more.\n\n- one\n- two\n\n1. first\n2. second\n\n```ts\nconst x = 1;\n```"
        }
        width={80}
      />,
    );
    const frame = lastFrame() ?? "";
    expect(frame).toContain("Title");
    expect(frame).not.toContain("# Title");
    expect(frame).toContain("Some bold, em and code & more.");
    expect(frame).toContain("• one");
    expect(frame).toContain("2. second");
    expect(frame).toContain("const x = 1;");
    expect(frame).not.toContain("```");
  });

  it("shows an unfinished code fence while it streams", () => {
    const { lastFrame } = render(<Markdown text={"```python\nprint('hi')"} width={80} />);
    expect(lastFrame()).toContain("print('hi')");
  });
});

describe("Markdown tables", () => {
  it("draws a table in columns, without its pipes, with the header ruled off", () => {
    const frame = draw(TABLE, 120);
    const lines = frame.split("\n");
    expect(lines[0]).toMatch(/^Tool +│ +Tier +│ +What it does$/);
    expect(lines[1]).toMatch(/^─+┼─+┼─+$/);
    expect(frame).toMatch(/^read_file +│ read_only +│ reads a file and returns its text, whole or in part$/m);
    expect(frame).not.toContain("|");
    expect(frame).not.toContain("**");
  });

  it("wraps cells inside their columns in a narrow window, the separators as tall as the row", () => {
    const frame = draw(TABLE, 40);
    const lines = frame.split("\n");
    expect(Math.max(...lines.map((line) => displayWidth(line)))).toBeLessThanOrEqual(40);
    const bars = lines.map((line) => Array.from(line.matchAll(/│/g), (match) => match.index));
    const rows = bars.filter((positions) => positions.length > 0);
    expect(rows.length).toBeGreaterThan(4);
    expect(new Set(rows.map((positions) => positions.join(",")))).toEqual(new Set([rows[0]?.join(",")]));
    expect(frame).toContain("reads a file");
  });

  it("shows rows as header: value lines when even narrow columns do not fit", () => {
    const frame = draw(
      "| a | b | c | d | e |\n|---|---|---|---|---|\n| one | two | three | four | five |",
      20,
    );
    expect(frame).toMatch(/^a: one$/m);
    expect(frame).toMatch(/^e: five$/m);
  });

  it.each([
    [[["ab", "cd"]], 40, [2, 2]],
    [[["x".repeat(30), "y".repeat(30)]], 40, [19, 18]],
    [[["short", "a long cell with many words in it that wants the room"]], 40, [5, 32]],
    [[["a", "b", "c", "d", "e", "f"]].map((row) => row.map((cell) => cell.repeat(10))), 20, undefined],
  ])("lays out %j in %i columns as %j", (rows, width, widths) => {
    expect(tableWidths(rows, width)).toEqual(widths);
  });
});

describe("Markdown links", () => {
  it("shows the URL after the label where the terminal has no hyperlinks", () => {
    expect(draw("See [the docs](https://example.com/docs) now.", 80)).toContain(
      "See the docs (https://example.com/docs) now.",
    );
  });

  it("wraps the label in an OSC 8 hyperlink we build, never one from the text", () => {
    const frame = draw("See [the docs](https://example.com/ä?q=1) now.", 80, { FORCE_HYPERLINK: "1" });
    expect(frame).toContain("\u001b]8;;https://example.com/%C3%A4?q=1\u001b\\the docs\u001b]8;;\u001b\\");
    expect(frame).not.toContain("(https://");
    const unsafe = draw("[click](javascript:alert(1))", 80, { FORCE_HYPERLINK: "1" });
    expect(unsafe).not.toContain("\u001b]8");
    expect(unsafe).toContain("click (javascript:alert(1))");
  });

  it.each<[NodeJS.ProcessEnv, boolean]>([
    [{ TERM_PROGRAM: "iTerm.app", TERM_PROGRAM_VERSION: "3.5.0" }, true],
    [{ TERM_PROGRAM: "iTerm.app", TERM_PROGRAM_VERSION: "3.0.9" }, false],
    [{ TERM_PROGRAM: "vscode", TERM_PROGRAM_VERSION: "1.90.0" }, true],
    [{ VTE_VERSION: "7200" }, true],
    [{ WT_SESSION: "x" }, true],
    [{ TERM: "xterm-kitty" }, true],
    [{ TERM: "xterm-256color" }, false],
    [{ TERM: "dumb", WT_SESSION: "x" }, false],
    [{ TMUX: "/tmp/t", TERM_PROGRAM: "WezTerm" }, false],
    [{ NO_COLOR: "1", WT_SESSION: "x" }, false],
    [{ FORCE_HYPERLINK: "1", TERM: "dumb" }, true],
    [{ FORCE_HYPERLINK: "0", WT_SESSION: "x" }, false],
  ])("hyperlinks for %j: %s", (env, expected) => {
    expect(supportsHyperlinks(env)).toBe(expected);
  });

  it.each([
    ["https://example.com/a b", "https://example.com/a%20b"],
    ["http://例子.测试/路径", "http://xn--fsqu00a.xn--0zwm56d/%E8%B7%AF%E5%BE%84"],
    ["mailto:me@example.com", "mailto:me@example.com"],
    ["javascript:alert(1)", undefined],
    ["file:///etc/passwd", undefined],
    ["not a url", undefined],
  ])("safeUrl(%s) = %s", (href, expected) => {
    expect(safeUrl(href)).toBe(expected);
  });
});

describe("highlightCode", () => {
  it("marks keywords and strings of a known language, line by line", () => {
    const lines = highlightCode('const a = "x";\nreturn a;', "ts");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContainEqual({ text: "const", kind: "keyword" });
    expect(lines[0]).toContainEqual({ text: '"x"', kind: "string" });
  });

  it("leaves unknown languages plain", () => {
    expect(highlightCode("a b", "nosuchlang")).toEqual([[{ text: "a b", kind: undefined }]]);
  });
});
