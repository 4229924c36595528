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
  const names = [...(await help([])).matchAll(/^ {2}mcpterm ([\w-]+)/gm)].map((match) => match[1] ?? "");
  return names.filter((name) => name !== "");
}

/** One entry's names (`-p, --prompt`, `--json, --as-json`, `uri`), then what follows them. */
const ENTRY = /^\s+((?:-{1,2}[\w-]+)(?:, -{1,2}[\w-]+)*|[\w-]+)(.*)$/;

/**
 * The entries of a help text's Options and Positionals that say nothing but their type (or
 * nothing at all): after the names, only `[boolean]`, `[string]`… A positional whose choices
 * are listed says what it takes; an option with choices still says what it is for.
 */
function undescribed(text: string): string[] {
  const found: string[] = [];
  let section: "options" | "positionals" | undefined;
  for (const line of text.split("\n")) {
    if (/^\S/.test(line)) {
      section = line === "Options:" ? "options" : line === "Positionals:" ? "positionals" : undefined;
      continue;
    }
    const entry = section && ENTRY.exec(line);
    if (!entry) continue;
    const rest = (entry[2] ?? "").trim();
    if (section === "positionals" && rest.includes("[choices:")) continue;
    if (rest === "" || rest.startsWith("[")) found.push(line.trim());
  }
  return found;
}

describe("every command's --help", () => {
  it("says what each option and argument is for", async () => {
    const names = await commands();
    expect(names).toEqual(expect.arrayContaining(["tools", "call", "read", "kb", "trace", "doctor"]));
    const missing: string[] = [];
    for (const words of [[], ...names.map((name) => [name])])
      for (const line of undescribed(await help(words))) missing.push(`mcpterm ${words.join(" ")}: ${line}`);
    expect(missing).toEqual([]);
  });

  it("is read entry by entry, whatever the entry's form", () => {
    const text = [
      "Positionals:",
      "  uri  [string]",
      "  bare",
      '  action  [required] [choices: "a", "b"]',
      "  target  what it is  [string]",
      "",
      "Options:",
      "  -j, --json  [boolean]",
      "      --json, --as-json  [boolean]",
      "      --zz",
      '      --mode  [choices: "x", "y"]',
      "      --ok  says something  [boolean]",
    ].join("\n");
    expect(undescribed(text)).toEqual([
      "uri  [string]",
      "bare",
      "-j, --json  [boolean]",
      "--json, --as-json  [boolean]",
      "--zz",
      '--mode  [choices: "x", "y"]',
    ]);
  });
});
