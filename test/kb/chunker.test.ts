import { describe, expect, it } from "vitest";
import { chunkFile } from "../../src/core/kb/chunker.js";
import type { Chunk } from "../../src/core/kb/types.js";
import { linesOf } from "./helpers.js";

function expectLinesMatch(source: string, chunks: readonly Chunk[]): void {
  for (const chunk of chunks) {
    if (chunk.startLine === chunk.endLine && !source.split("\n")[chunk.startLine - 1]?.includes(chunk.text)) {
      throw new Error(`chunk text not on line ${chunk.startLine}`);
    }
    if (chunk.startLine !== chunk.endLine)
      expect(linesOf(source, chunk.startLine, chunk.endLine)).toBe(chunk.text);
  }
}

describe("Markdown", () => {
  const doc = [
    "---", //                      1
    "title: Operations runbook", // 2
    "---", //                      3
    "# Runbook", //                4
    "", //                         5
    "## Deploy", //                6
    "", //                         7
    "Run the deploy script.", //   8
    "", //                         9
    "### Rollback", //             10
    "Revert the release tag.", //  11
    "", //                         12
    "```sh", //                    13
    "# not a heading", //          14
    "git revert HEAD", //          15
    "```", //                      16
    "", //                         17
    "Monitoring", //               18
    "----------", //               19
    "", //                         20
    "Watch the error rate.", //    21
  ].join("\n");
  const chunks = chunkFile("ops/runbook.md", doc, "markdown");

  it("follows the heading tree, ignoring # inside code fences and reading setext headings", () => {
    expect(chunks.map((c) => [c.heading, c.startLine, c.endLine])).toEqual([
      ["Runbook > Deploy", 4, 8],
      ["Runbook > Deploy > Rollback", 10, 16],
      ["Runbook > Monitoring", 18, 21],
    ]);
    expectLinesMatch(doc, chunks);
  });

  it("takes the title from front matter", () => {
    expect(new Set(chunks.map((c) => c.title))).toEqual(new Set(["Operations runbook"]));
  });

  it("falls back to the file name for the title", () => {
    expect(chunkFile("notes/on-call_rota.md", "Just text.", "markdown")[0]?.title).toBe("on call rota");
  });

  it("splits a long section into bounded passages that overlap a little", () => {
    const paragraphs = Array.from(
      { length: 30 },
      (_, i) => `Paragraph ${i} says something useful about topic ${i}.`,
    );
    const long = `# Big\n\n## Part\n\n${paragraphs.join("\n\n")}\n`;
    const size = { maxChars: 300, overlapChars: 80, minChars: 60 };
    const parts = chunkFile("big.md", long, "markdown", size);
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts) {
      expect(part.text.length).toBeLessThanOrEqual(300);
      expect(part.heading).toBe("Big > Part");
    }
    expectLinesMatch(long, parts);
    for (let i = 1; i < parts.length; i++) {
      expect(parts[i]?.startLine).toBeLessThanOrEqual((parts[i - 1]?.endLine ?? 0) + 2);
    }
    expect(parts.some((part, i) => i > 0 && part.startLine <= (parts[i - 1]?.endLine ?? 0))).toBe(true);
  });

  it("never splits inside a code fence at a blank line when the fence fits", () => {
    const fence = "```js\nconst a = 1;\n\nconst b = 2;\n```";
    const text = `# Code\n\n${"Intro sentence. ".repeat(15)}\n\n${fence}\n\n${"Outro sentence. ".repeat(15)}\n`;
    const parts = chunkFile("c.md", text, "markdown", { maxChars: 260, overlapChars: 0, minChars: 10 });
    expect(parts.some((part) => part.text.includes(fence))).toBe(true);
  });

  it("cuts a single enormous line instead of keeping it whole", () => {
    const text = `# Log\n\n${"token ".repeat(1000)}\n`;
    const parts = chunkFile("log.md", text, "markdown");
    expect(parts.length).toBeGreaterThan(3);
    for (const part of parts) expect(part.text.length).toBeLessThanOrEqual(1200);
  });

  it("yields nothing for an empty or blank file", () => {
    expect(chunkFile("e.md", "", "markdown")).toEqual([]);
    expect(chunkFile("e.md", "\n\n   \n", "markdown")).toEqual([]);
  });
});

describe("reStructuredText", () => {
  it("reads underlined and overlined titles as headings", () => {
    const doc = "=====\nGuide\n=====\n\nIntro.\n\nSetup\n-----\n\nInstall it.\n";
    const chunks = chunkFile("g.rst", doc, "rst");
    expect(chunks.map((c) => [c.heading, c.startLine, c.endLine])).toEqual([
      ["Guide", 1, 5],
      ["Guide > Setup", 7, 10],
    ]);
    expectLinesMatch(doc, chunks);
  });
});

describe("code", () => {
  it("breaks at top-level definitions and names the chunk after the first one", () => {
    const fn = (name: string): string => `export function ${name}() {\n${"  work();\n".repeat(40)}}\n`;
    const source = `import x from "x";\n\n${fn("alpha")}\n${fn("beta")}\n${fn("gamma")}`;
    const chunks = chunkFile("src/a.ts", source, "code", { maxChars: 800, overlapChars: 0, minChars: 100 });
    expect(chunks.map((c) => c.heading)).toEqual(["alpha", "beta", "gamma"]);
    expect(chunks[1]?.text.startsWith("export function beta()")).toBe(true);
    expectLinesMatch(source, chunks);
  });
});

describe("plain text", () => {
  it("breaks at paragraphs", () => {
    const text = Array.from({ length: 12 }, (_, i) => `Paragraph ${i}.\n${"words ".repeat(30)}`).join("\n\n");
    const chunks = chunkFile("notes.txt", text, "text", { maxChars: 500, overlapChars: 0, minChars: 50 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.text.startsWith("Paragraph")).toBe(true);
    expectLinesMatch(text, chunks);
  });
});

describe("a huge heading", () => {
  it("is carried by each passage cut to 300 characters, its words kept in the passages", () => {
    const heading = `Runbook ${"lantern ".repeat(20_000)}end`;
    const body = Array.from(
      { length: 400 },
      (_, n) => `Paragraph ${n} about the archivist and the rope.\n`,
    ).join("\n");
    const chunks = chunkFile("big.md", `# ${heading}\n\n${body}`, "markdown");
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) {
      expect(chunk.heading.length).toBeLessThanOrEqual(301);
      expect(chunk.title.length).toBeLessThanOrEqual(301);
    }
    expect(chunks[0]?.heading).toMatch(/^Runbook lantern lantern .*…$/);
    // Its words are all still searchable, in the passages its long line was cut into.
    const text = chunks
      .map((chunk) => chunk.text)
      .join(" ")
      .replace(/\s+/g, " ");
    expect(text.includes(heading)).toBe(true);
  });
});
