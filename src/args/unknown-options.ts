/**
 * What to say of options a command does not take, beyond yargs' "Unknown argument: jsn": each
 * as it was typed (`--jsn`), the option of the command it is closest to (`did you mean
 * --json?`), or, for an option of the assistant's given to another command (`call … --trace`),
 * that it is the assistant's; and for a mistyped command, the command meant. Read from the help
 * texts' Options and Commands sections, the one list of each command's options.
 */
export function unknownOptionsSentence(
  unknown: readonly string[],
  words: readonly string[],
  command: string | undefined,
  help: { command: string; assistant: string },
  /** Said after the hints, before where to look (kb's note on words that start with -). */
  note = "",
): string {
  const commands = commandsIn(help.assistant);
  const known = command !== undefined && commands.has(command) ? command : undefined;
  const commandOptions = optionsIn(known === undefined ? help.assistant : help.command);
  const assistantOptions = optionsIn(help.assistant);
  const named = unknown.map((name) => {
    const typed = asTyped(name, words);
    if (!typed.startsWith("-")) {
      // A word where the command goes: the command it is closest to.
      const meant = name === command ? closest(name, commands) : undefined;
      return { typed, hint: meant === undefined ? undefined : `did you mean mcpterm ${meant}?` };
    }
    const meant = closest(typed, commandOptions);
    if (meant !== undefined) return { typed, hint: `did you mean ${meant}?` };
    if (known !== undefined && assistantOptions.has(typed))
      return { typed, hint: `${typed} is the assistant's (mcpterm, mcpterm -p), not mcpterm ${known}'s` };
    return { typed, hint: undefined };
  });
  const hints = named.flatMap(({ hint }) => (hint === undefined ? [] : [hint]));
  const where = known === undefined ? "mcpterm --help" : `mcpterm ${known} --help`;
  return `Unknown argument${named.length === 1 ? "" : "s"}: ${named.map(({ typed }) => typed).join(", ")}${hints.length > 0 ? `; ${hints.join("; ")}` : ""}${note} (see ${where} for what it takes)`;
}

/**
 * The options a help text's Options section lists (`  -h, --help  …`, `      --json  …`), a
 * boolean's `--no-` form too: not the options its descriptions mention, which may be another
 * command's (`kb search <query> [--k n]`).
 */
function optionsIn(help: string): Set<string> {
  const options = new Set<string>();
  for (const line of section(help, "Options:")) {
    const option = /^\s+(?:-\w, )?(--[a-z][a-z-]*)/.exec(line)?.[1];
    if (option === undefined) continue;
    options.add(option);
    if (line.includes("[boolean]")) options.add(`--no-${option.slice(2)}`);
  }
  return options;
}

/** The commands the assistant's help lists (`  mcpterm tools [tool]  …`). */
function commandsIn(help: string): Set<string> {
  const commands = section(help, "Commands:").flatMap((line) => /^\s+mcpterm ([a-z]+)/.exec(line)?.[1] ?? []);
  return new Set(commands);
}

/** The lines of a help text's section, from its heading to the blank line after it. */
function section(help: string, heading: string): string[] {
  const lines = help.split("\n");
  const start = lines.indexOf(heading);
  if (start === -1) return [];
  const end = lines.findIndex((line, index) => index > start && line.trim() === "");
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

/** yargs' name for an unknown option (`jsn`, `j`) as it was typed: `--jsn`, `-j`, `--no-jsn`; a word as it is. */
function asTyped(name: string, words: readonly string[]): string {
  for (const typed of [`--${name}`, `-${name}`, `--no-${name}`])
    if (words.some((word) => word === typed || word.startsWith(`${typed}=`))) return typed;
  return name;
}

/**
 * The one candidate a typo is closest to: one edit away for a short name (four letters or
 * fewer), two for a longer one, starting with the same letter (`--all` is not `--url`), in any
 * case; none when two are as close.
 */
function closest(typed: string, candidates: ReadonlySet<string>): string | undefined {
  const word = typed.toLowerCase();
  const bare = word.replace(/^-+/, "");
  const allowed = bare.length <= 4 ? 1 : 2;
  const near = [...candidates].filter((candidate) => {
    const other = candidate.replace(/^-+/, "");
    return other[0] === bare[0] && editDistance(word, candidate) <= allowed;
  });
  return near.length === 1 ? near[0] : undefined;
}

/** Levenshtein distance, with a swap of two neighbours as one edit (`--jsno`). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i += 1)
    for (let j = 1; j <= b.length; j += 1) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] ?? 0) + 1);
      row[j] = best;
    }
  return (rows[a.length] as number[])[b.length] ?? 0;
}
