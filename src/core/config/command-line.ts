/**
 * Splits a command line typed as one argument (`--server fixture="node build/server.js --port 0"`)
 * into words as a POSIX shell would for the simple cases: spaces separate words, single quotes
 * keep everything, double quotes keep spaces and honour `\"` and `\\`, a backslash outside
 * quotes escapes the next character. Nothing is expanded and no shell runs it. Returns the
 * sentence that says what is wrong instead, for an unclosed quote.
 */
export function splitCommandLine(text: string): string[] | string {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? "";
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === "\\" && (text[index + 1] === '"' || text[index + 1] === "\\")) {
        word += text.charAt(index + 1);
        index += 1;
      } else word += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === "\\" && index + 1 < text.length) {
      word += text.charAt(index + 1);
      index += 1;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== undefined) return `the command line ${JSON.stringify(text)} has an unclosed ${quote} quote`;
  if (inWord) words.push(word);
  return words;
}
