import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { highlightCode } from "../../src/ui/highlight-code.js";
import { Markdown } from "../../src/ui/Markdown.js";

describe("Markdown", () => {
  it("renders headings, lists, emphasis and code without the markup", () => {
    const { lastFrame } = render(
      <Markdown
        text={
          "# Title\n\nSome **bold**, *em* and `code` & more.\n\n- one\n- two\n\n1. first\n2. second\n\n```ts\nconst x = 1;\n```"
        }
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
    const { lastFrame } = render(<Markdown text={"```python\nprint('hi')"} />);
    expect(lastFrame()).toContain("print('hi')");
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
