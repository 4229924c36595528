import { describe, expect, it } from "vitest";
import { SLASH_COMMANDS } from "../../src/core/commands/slash-commands.js";
import { complete, completionWords } from "../../src/ui/completion.js";

const source = {
  servers: ["everything", "fixture"],
  tools: [
    { server: "everything", name: "echo" },
    { server: "fixture", name: "write_note" },
  ],
};

/** What Tab makes of `text` with the cursor at its end. */
function tab(text: string): { text: string; candidates: string[] } {
  const result = complete({ text, cursor: text.length }, completionWords(text, SLASH_COMMANDS, source));
  return { text: result.state.text, candidates: result.candidates };
}

describe("Tab completion by context", () => {
  it.each([
    ["/mcp logs ev", "/mcp logs everything "],
    ["/mcp restart f", "/mcp restart fixture "],
    ["/mcp l", "/mcp logs "],
    ["/tools fi", "/tools fixture "],
    ["/tools fixture w", "/tools fixture write_note "],
    ["/tools everything w", "/tools everything w"],
    ["/trace w", "/trace wire "],
    ["/trace wire e", "/trace wire everything "],
    ["/kb s", "/kb search "],
    ["/kb search ec", "/kb search ec"],
    ["/he", "/help "],
    ["please use fixture/w", "please use fixture/write_note "],
    ["/model e", "/model e"],
  ])("%s", (text, completed) => {
    expect(tab(text).text).toBe(completed);
  });

  it("lists the servers, not the tools, for /mcp logs", () => {
    expect(tab("/mcp logs ").candidates).toEqual(["everything", "fixture"]);
  });
});
