import { describe, expect, it } from "vitest";
import { SLASH_COMMANDS } from "../../src/core/commands/slash-commands.js";
import { complete, completionWords } from "../../src/ui/keys/completion.js";

const source = {
  servers: ["everything", "fixture"],
  tools: [
    { server: "everything", name: "echo" },
    { server: "fixture", name: "write_note" },
  ],
  prompts: ["everything:args-prompt", "everything:simple-prompt"],
  resources: [{ server: "everything", uri: "demo://resource/static/document/architecture.md" }],
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
    ["/mcp l", "/mcp log"],
    ["/mcp logl", "/mcp loglevel "],
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
    ["/mcp i", "/mcp info "],
    ["/mcp loglevel ev", "/mcp loglevel everything "],
    ["/mcp loglevel everything war", "/mcp loglevel everything warning "],
    ["/resources f", "/resources fixture "],
    ["/prompts e", "/prompts everything "],
    ["/read everything demo", "/read everything demo://resource/static/document/architecture.md "],
    ["/everything:a", "/everything:args-prompt "],
    ["/ever", "/everything:"],
  ])("%s", (text, completed) => {
    expect(tab(text).text).toBe(completed);
  });

  it("lists the servers, not the tools, for /mcp logs", () => {
    expect(tab("/mcp logs ").candidates).toEqual(["everything", "fixture"]);
  });

  it("adds no space after a word that goes on: a mention's server, a URI's folder, key=", () => {
    for (const word of ["@everything:", "@everything:demo://resource/dynamic/text/", "city="]) {
      expect(complete({ text: "x", cursor: 1 }, [`x${word}`]).state.text).toBe(`x${word}`);
    }
    expect(complete({ text: "x", cursor: 1 }, ["xyz"]).state.text).toBe("xyz ");
  });
});
