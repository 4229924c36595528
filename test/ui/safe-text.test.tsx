import { describe, expect, it } from "vitest";
import { Text } from "../../src/ui/parts/SafeText.js";
import { TerminalSequence } from "../../src/ui/parts/TerminalSequence.js";
import { render } from "../support/ink-render.js";

describe("Text, the only way the TUI draws text", () => {
  it("draws text as given, and text that would drive the terminal without its sequences", () => {
    const { lastFrame, unmount } = render(
      <Text>
        {"plain "}
        {"\u001b]52;c;b3duZWQ=\u0007clip \u001b[2Jclear \u202eflip\u200b"}
        <Text bold>{"\u009b31mnested"}</Text>
        {7}
      </Text>,
    );
    const frame = lastFrame() ?? "";
    unmount();
    expect(frame).toContain("plain clip clear flip");
    expect(frame).toContain("nested7");
    for (const driver of ["\u001b]52", "\u001b[2J", "\u202e", "\u200b", "\u009b"])
      expect(frame).not.toContain(driver);
  });

  it("lets mcpterm's own sequence through only by name", () => {
    const { lastFrame, unmount } = render(
      <Text>
        <TerminalSequence sequence={"\u001b]8;;https://example.com\u001b\\"} />
        link
        <TerminalSequence sequence={"\u001b]8;;\u001b\\"} />
      </Text>,
    );
    const frame = lastFrame() ?? "";
    unmount();
    expect(frame).toContain("\u001b]8;;https://example.com\u001b\\link\u001b]8;;\u001b\\");
  });
});
