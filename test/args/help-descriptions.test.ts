import { describe, expect, it } from "vitest";
import { parseArgs } from "../../src/args/index.js";
import { MCPTERM_VERSION } from "../../src/core/version.js";

async function help(words: string[]): Promise<string> {
  const parsed = await parseArgs([...words, "--help"], MCPTERM_VERSION);
  if (parsed.command !== "print") throw new Error(`${words.join(" ")} --help printed nothing`);
  return parsed.text;
}

/** The subcommands the top-level help lists (`mcpterm tools [tool]` gives `tools`). */
async function commands(): Promise<string[]> {
  const names = [...(await help([])).matchAll(/^ {2}mcpterm (\w+)/gm)].map((match) => match[1] ?? "");
  return names.filter((name) => name !== "");
}

/**
 * The option and positional lines of a help text that say nothing but their type: a flag name
 * followed at once by `[boolean]`. A positional whose choices are listed says what it takes.
 */
function undescribed(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => /^\s+(?:-\w, )?(?:--)?[\w-]+\s+\[/.test(line) && !line.includes("[choices:"));
}

describe("every command's --help", () => {
  it("says what each option and argument is for", async () => {
    const names = await commands();
    expect(names).toEqual(expect.arrayContaining(["tools", "call", "read", "kb", "trace", "doctor"]));
    const missing: string[] = [];
    for (const words of [[], ...names.map((name) => [name])])
      for (const line of undescribed(await help(words)))
        missing.push(`mcpterm ${words.join(" ")}: ${line.trim()}`);
    expect(missing).toEqual([]);
  });
});
