import { describe, expect, it } from "vitest";
import { callsLine } from "../../src/ui/transcript/resumed-transcript.js";

describe("a resumed turn's calls, as they were", () => {
  it.each<[string, Parameters<typeof callsLine>[0], string]>([
    ["calls that answered", [{ server: "fs", tool: "read", outcome: "done" }], "called fs/read"],
    [
      "each outcome in its own words, in one line",
      [
        { server: "fs", tool: "read", outcome: "done" },
        { server: "fs", tool: "write", outcome: "denied" },
        { server: "fs", tool: "move", outcome: "denied" },
        { server: "web", tool: "fetch", outcome: "failed" },
        { server: "db", tool: "query", outcome: "cancelled" },
        { server: "db", tool: "drop", outcome: "not_run" },
      ],
      "called fs/read · failed web/fetch · denied fs/write, fs/move · cancelled db/query · not run db/drop",
    ],
    ["a session saved before outcomes were kept: called", [{ server: "fs", tool: "read" }], "called fs/read"],
    [
      "one tool with two outcomes is named under each",
      [
        { server: "fs", tool: "write", outcome: "denied" },
        { server: "fs", tool: "write", outcome: "done" },
      ],
      "called fs/write · denied fs/write",
    ],
  ])("%s", (_name, calls, line) => {
    expect(callsLine(calls)).toBe(line);
  });
});
