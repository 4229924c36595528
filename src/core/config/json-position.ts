/** Where something sits in a text file, both counted from 1, as editors show it. */
export interface TextPosition {
  line: number;
  column: number;
}

export function lineAndColumn(text: string, offset: number): TextPosition {
  const before = text.slice(0, offset);
  return { line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
}

/** "line 3, column 5", as config error messages name a place in the file. */
export function describePosition({ line, column }: TextPosition): string {
  return `line ${line}, column ${column}`;
}
