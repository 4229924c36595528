import { describe, expect, it } from "vitest";
import type { CallToolResult } from "../../src/core/mcp/types.js";
import { capText, resultText, textForModel, toolResultText } from "../../src/core/policy/result-text.js";
import { sanitizeForTerminal } from "../../src/core/policy/sanitize-terminal.js";

describe("toolResultText", () => {
  it("keeps text and describes what a text-only model cannot see", () => {
    const text = toolResultText({
      content: [
        { type: "text", text: "hello" },
        { type: "image", mimeType: "image/png", data: "aGVsbG8=" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "inside" } },
        { type: "resource_link", uri: "file:///b", name: "b" },
      ],
    });
    expect(text).toBe(
      "hello\n[image: image/png, 5 B; not shown to a text-only model]\n[resource file:///a.txt]\ninside\n[resource link: b file:///b]",
    );
  });

  it("describes audio and binary resources with their type and decoded size", () => {
    const data = Buffer.alloc(2_048).toString("base64");
    const blocks: CallToolResult["content"] = [
      { type: "audio", mimeType: "audio/wav", data },
      { type: "resource", resource: { uri: "file:///r.bin", mimeType: "application/pdf", blob: data } },
      { type: "resource", resource: { uri: "file:///s.bin", blob: "aGk=" } },
    ];
    const text = toolResultText({ content: blocks });
    expect(resultText({ content: blocks }).attachments).toEqual([
      "audio/wav, 2.0 KB",
      "application/pdf, 2.0 KB",
      "no type given, 2 B",
    ]);
    expect(text).toBe(
      "[audio: audio/wav, 2.0 KB; not shown to a text-only model]\n[resource file:///r.bin: application/pdf, 2.0 KB]\n[resource file:///s.bin: no type given, 2 B]",
    );
  });

  it("falls back to structured content when there are no blocks", () => {
    expect(toolResultText({ content: [], structuredContent: { ok: 1 } })).toBe('{\n  "ok": 1\n}');
  });

  it("keeps blocks and structured content apart; the model reads the blocks when there are any", () => {
    const result = { content: [{ type: "text" as const, text: '{"ok":1}' }], structuredContent: { ok: 1 } };
    const text = resultText(result);
    expect(text).toEqual({ content: '{"ok":1}', structured: '{\n  "ok": 1\n}', attachments: [] });
    expect(textForModel(result, text)).toBe('{"ok":1}');
    expect(
      textForModel({ content: [], structuredContent: { ok: 1 } }, { content: "", structured: "S" }),
    ).toBe("S");
    expect(resultText({ content: [{ type: "text", text: "t" }] }).structured).toBeUndefined();
  });
});

describe("capText", () => {
  it("leaves short text alone", () => {
    expect(capText("abc", 5)).toEqual({ text: "abc", truncated: false, omittedChars: 0 });
  });
  it("cuts long text and says how much was cut", () => {
    const capped = capText("x".repeat(5_000_000), 40_000);
    expect(capped.truncated).toBe(true);
    expect(capped.text.startsWith("x".repeat(40_000))).toBe(true);
    expect(capped.text).toMatch(/\[truncated: 4960000 of 5000000 characters omitted\]$/);
  });
  it("never splits a surrogate pair", () => {
    const capped = capText("ab😀cd", 3);
    expect(capped.text.startsWith("ab\n")).toBe(true);
    expect(capped.omittedChars).toBe(4);
  });
});

describe("sanitizeForTerminal", () => {
  it.each([
    ["\u001b[31mred\u001b[0m", "red"],
    ["\u001b]8;;https://evil\u0007link\u001b]8;;\u0007", "link"],
    ["\u001b]52;c;ZXZpbA==\u0007copied", "copied"],
    ["a\u001b[2Jb\u001b[Hc", "abc"],
    ["bell\u0007 and backspace\b", "bell and backspace"],
    ["left\u202eright\u200b", "leftright"],
    ["line one\n\tline two", "line one\n\tline two"],
  ])("%j -> %j", (input, output) => {
    expect(sanitizeForTerminal(input)).toBe(output);
  });
});
