import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/core/text/index.js";
import { fitCallHeader } from "../../src/ui/parts/fit-call-header.js";
import { PromptInput } from "../../src/ui/prompt/PromptInput.js";
import { render } from "../support/ink-render.js";

describe("fitCallHeader", () => {
  it.each([
    ["fixture/write_note", 3, '{"name":"a.md"}', 60, "fixture/write_note", ' #3 {"name":"a.md"}'],
    ["fixture/write_note", 3, '{"name":"a.md"}', 30, "fixture/write_note", ' #3 {"name"…'],
    ["fixture/write_note", 3, '{"name":"a.md"}', 26, "fixture/write_note", " #3"],
    ["filesystem-with-a-long-name/write_text_file", 12, "{}", 24, "filesystem…text_file", " #12"],
    ["服务器/写入文件的工具", 1, "{}", 14, "服务…的工具", " #1"],
  ])("%s #%s in %s columns", (label, number, args, room, fitted, rest) => {
    const header = fitCallHeader(label, number, args, room);
    expect(header).toEqual({ label: fitted, rest });
    expect(displayWidth(header.label + header.rest)).toBeLessThanOrEqual(room);
  });
});

describe("PromptInput", () => {
  it("keeps an emoji or a combined letter under the cursor whole", () => {
    for (const [text, cursor] of [
      ["a😀b", 1],
      ["👨‍👩‍👧 family", 0],
      ["e\u0301t\u00e9", 0],
    ] as const) {
      const app = render(<PromptInput editor={{ text, cursor }} dimmed={false} columns={40} maxRows={10} />, {
        columns: 40,
      });
      expect(app.lastFrame() ?? "").toContain(text);
      app.unmount();
    }
  });

  it("shows the lines around the cursor of a draft taller than its rows, and how many are hidden", () => {
    const text = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`).join("\n");
    const cursor = text.indexOf("line 15");
    const app = render(<PromptInput editor={{ text, cursor }} dimmed={false} columns={40} maxRows={8} />, {
      columns: 40,
    });
    const frame = app.lastFrame() ?? "";
    app.unmount();
    // The box's rows: its two borders and at most eight inside.
    expect(frame.split("\n").length).toBeLessThanOrEqual(10);
    expect(frame).toContain("line 15");
    expect(frame).toMatch(/↑ \d+ more lines above/);
    expect(frame).toMatch(/↓ \d+ more lines below/);
    expect(frame).not.toContain("line 1 ");
    expect(frame).not.toContain("line 30");
  });
});
