/**
 * What a person should not miss in a command line a config would run: patterns that are rare in
 * an MCP server's launch line and common in an attack. Matched on the words joined with spaces,
 * so a script handed to `sh -c`, `bash -c`, `cmd /c` or `powershell -Command` is read like the
 * rest of the line. These are highlights for a person reading the line, not a sandbox: a line
 * with none of them can still do harm, which is why every line is shown and trusted explicitly.
 */
export type CommandRisk = "download_to_shell" | "runs_as_root" | "deletes_recursively";

export const COMMAND_RISK_TEXT: Record<CommandRisk, string> = {
  download_to_shell: "pipes a download into a shell",
  runs_as_root: "runs as root (sudo, doas or su)",
  deletes_recursively: "deletes files recursively",
};

/** Before a command word: the start, a space, a bracket or a quote. */
const START = String.raw`(?:^|[\s(){}\x60'"])`;
/** After a command word: the end, or one of the same. */
const END = String.raw`(?=$|[\s(){}\x60'"])`;
/** `/usr/bin/` or `C:\Windows\System32\` before a command word. */
const DIR = String.raw`(?:[^\s(){}\x60'"]*[\\/])?`;
const EXE = String.raw`(?:\.exe)?`;

const DOWNLOAD = String.raw`${DIR}(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)${EXE}${END}`;
const SHELL = String.raw`${DIR}(?:(?:ba|da|k|z|a|fi|c|tc)?sh|python[\d.]*|perl|ruby|node|php|iex|invoke-expression|pwsh|powershell|cmd)${EXE}${END}`;
/** `sudo -E`, `env X=1` and the like, in front of the shell a download is fed to; each ends at a space, so there is one way to read them. */
const WRAPPERS = String.raw`(?:${DIR}(?:sudo|doas|env|exec|command|nohup|xargs)${EXE}\s+(?:-\S*\s+|[A-Za-z_]\w*=\S*\s+)*)*`;

const word = (pattern: string, flags = ""): RegExp => new RegExp(`${START}${pattern}`, flags);

/**
 * A risk found in one simple command: `word` finds where it starts, and `then`, when given, must
 * match in the text from there on. Two steps, each one pass over the text, so a long line costs
 * linear time rather than a backtracking regex's quadratic time.
 */
interface Rule {
  risk: CommandRisk;
  word: RegExp;
  then?: RegExp;
}

const RULES: readonly Rule[] = [
  // sh -c "$(curl …)", bash <(curl …), eval "$(wget -qO- …)", . <(curl …)
  {
    risk: "download_to_shell",
    word: word(String.raw`(?:${SHELL}|eval${END}|source${END}|\.(?=\s))`, "i"),
    then: new RegExp(String.raw`(?:\$\(|\x60|<\()\s*${WRAPPERS}${DOWNLOAD}`, "i"),
  },
  // iex (iwr …), iex ((New-Object Net.WebClient).DownloadString(…))
  {
    risk: "download_to_shell",
    word: word(String.raw`(?:iex|invoke-expression)${END}`, "i"),
    then: new RegExp(String.raw`${START}${DOWNLOAD}|downloadstring`, "i"),
  },
  { risk: "runs_as_root", word: word(String.raw`${DIR}(?:sudo|doas|pkexec|su|gsudo|runas)${EXE}${END}`) },
  // rm -rf, rm -r, rm -R, rm --recursive: rm's own short flags only, so PowerShell's `rm -Force` is not one.
  {
    risk: "deletes_recursively",
    word: word(String.raw`${DIR}rm${END}`),
    then: new RegExp(String.raw`\s(?:-[fiIdv]*[rR][fiIrRdv]*|--recursive)${END}`),
  },
  {
    risk: "deletes_recursively",
    word: word(String.raw`${DIR}find${END}`),
    then: new RegExp(String.raw`\s(?:-delete|-exec(?:dir)?\s+${DIR}rm)${END}`),
  },
  // rmdir /s, rd /s /q, del /s /q *.*: cmd's switches, alone or run together (/s/q).
  {
    risk: "deletes_recursively",
    word: word(String.raw`(?:rmdir|rd|del|erase)${EXE}${END}`, "i"),
    then: new RegExp(String.raw`\s(?:\/[a-z])*\/s(?:\/[a-z])*${END}`, "i"),
  },
  // Remove-Item -Recurse, and its aliases; PowerShell accepts any prefix down to -Rec.
  {
    risk: "deletes_recursively",
    word: word(String.raw`(?:remove-item|ri|rm|rmdir|rd|del|erase)${END}`, "i"),
    then: new RegExp(String.raw`\s-rec(?:u(?:r(?:se?)?)?)?(?:${END}|:)`, "i"),
  },
  { risk: "deletes_recursively", word: word(String.raw`${DIR}rimraf(?:@\S*)?${END}`, "i") },
  // shutil.rmtree(…) in python -c, fs.rmSync(…, { recursive: true }) in node -e.
  { risk: "deletes_recursively", word: /\brmtree\s*\(/ },
  { risk: "deletes_recursively", word: /\brm(?:dir)?(?:Sync)?\s*\(/, then: /^[^)]*recursive\s*:\s*true/ },
];

/** `;`, `&&`, `||`, a newline, a background `&` and `|`; an `&` inside a word (a URL's `a=1&b=2`) is none. */
const SEPARATOR = /(\|\||&&|[;\n]|\||&(?=\s|$))/;

/** Each risk `words` (a command and its arguments) carries, in a fixed order, each once. */
export function commandLineRisks(words: readonly string[]): CommandRisk[] {
  const pieces = words.join(" ").split(SEPARATOR);
  const found = new Set<CommandRisk>();
  let downloadInPipeline = false;
  for (let index = 0; index < pieces.length; index += 2) {
    const command = pieces[index] ?? "";
    // curl … | sh, wget -O- … | sudo bash, irm … | iex: a download earlier in the same pipeline.
    if (downloadInPipeline && FED_SHELL.test(command)) found.add("download_to_shell");
    downloadInPipeline = (downloadInPipeline || HAS_DOWNLOAD.test(command)) && pieces[index + 1] === "|";
    for (const rule of RULES) {
      const at = command.search(rule.word);
      if (at !== -1 && (rule.then === undefined || rule.then.test(command.slice(at)))) found.add(rule.risk);
    }
  }
  return (Object.keys(COMMAND_RISK_TEXT) as CommandRisk[]).filter((risk) => found.has(risk));
}

const HAS_DOWNLOAD = word(DOWNLOAD, "i");
/** A command that starts (after brackets, quotes and wrappers such as sudo) with a shell. */
const FED_SHELL = new RegExp(String.raw`^[\s(){}\x60'"]*${WRAPPERS}${SHELL}`, "i");
