/**
 * What to say of options a command does not take, beyond yargs' "Unknown argument: jsn": each
 * as it was typed (`--jsn`), the option of the command it is closest to (`did you mean
 * --json?`), or, for an option of the assistant's given to another command (`call … --trace`),
 * that it is the assistant's. Read from the help texts, the one list of each command's options.
 */
export function unknownOptionsSentence(
  unknown: readonly string[],
  words: readonly string[],
  command: string | undefined,
  help: { command: string; assistant: string },
  /** Said after the hints, before where to look (kb's note on words that start with -). */
  note = "",
): string {
  const commandOptions = optionsIn(help.command);
  const assistantOptions = optionsIn(help.assistant);
  const named = unknown.map((name) => {
    const typed = asTyped(name, words);
    if (!typed.startsWith("-")) return { typed, hint: undefined };
    const closest = closestOption(typed, commandOptions);
    if (closest !== undefined) return { typed, hint: `did you mean ${closest}?` };
    if (command !== undefined && assistantOptions.has(typed))
      return { typed, hint: `${typed} is the assistant's (mcpterm, mcpterm -p), not mcpterm ${command}'s` };
    return { typed, hint: undefined };
  });
  const hints = named.flatMap(({ hint }) => (hint === undefined ? [] : [hint]));
  const where = command === undefined ? "mcpterm --help" : `mcpterm ${command} --help`;
  return `Unknown argument${named.length === 1 ? "" : "s"}: ${named.map(({ typed }) => typed).join(", ")}${hints.length > 0 ? `; ${hints.join("; ")}` : ""}${note} (see ${where} for what it takes)`;
}

/** Every `--option` a help text names. */
function optionsIn(help: string): Set<string> {
  return new Set(help.match(/(?<![\w-])--[a-z][a-z-]*/g) ?? []);
}

/** yargs' name for an unknown option (`jsn`, `j`) as it was typed: `--jsn`, `-j`; a word as it is. */
function asTyped(name: string, words: readonly string[]): string {
  for (const typed of [`--${name}`, `-${name}`])
    if (words.some((word) => word === typed || word.startsWith(`${typed}=`))) return typed;
  return name;
}

/** The command's option one or two edits from what was typed, when exactly one is. */
function closestOption(typed: string, options: ReadonlySet<string>): string | undefined {
  if (!typed.startsWith("--")) return undefined;
  const near = [...options].filter((option) => editDistance(typed, option) <= Math.min(2, typed.length - 3));
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
