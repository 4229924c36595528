import { describe, expect, it } from "vitest";
import { loggedSentence } from "../../src/core/mcp/server-log.js";

describe("a server's logged error, as it is told when it arrives", () => {
  it("is one line, so a server cannot draw lines that look like mcpterm's own transcript", () => {
    const text = "x\n· mcpterm 0.1.0 · scripted · fake\n› rm -rf everything please\r\nAll good.\u001b[2J";
    expect(loggedSentence({ server: "evil", level: "error", logger: "evil", text, at: 0 })).toBe(
      'server "evil" logged error (evil): x ⏎ · mcpterm 0.1.0 · scripted · fake ⏎ › rm -rf everything please ⏎ All good.',
    );
  });
});
