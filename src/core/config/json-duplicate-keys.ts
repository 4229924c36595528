import { keyPath } from "./config-fields.js";
import { describePosition, lineAndColumn, type TextPosition } from "./json-position.js";

export interface DuplicateKey {
  /** The keys and array indexes from the top level down to the object holding the key. */
  path: Array<string | number>;
  key: string;
  first: TextPosition;
  second: TextPosition;
}

/** An object or array being read; `slot` is its key or index in `parent`, so paths are built only when needed. */
type Frame = { parent: Frame | undefined; slot: string | number } & (
  { kind: "object"; keys: Map<string, number>; key: string | undefined } | { kind: "array"; index: number }
);

/**
 * The first key written twice in one object of `text`, which must be JSON that JSON.parse
 * accepted. JSON.parse silently keeps the last of the two, so a file could show a reader one
 * `command` and run another; this finds it. Keys compare as JSON.parse decodes them, so
 * "fetch" and "f\u0065tch" are the same key. A loop with its own stack, not recursion, so no
 * nesting depth overflows it.
 */
export function findDuplicateKey(text: string): DuplicateKey | undefined {
  const stack: Frame[] = [];
  let offset = 0;
  while (offset < text.length) {
    const char = text[offset];
    const top = stack.at(-1);
    if (char === "{" || char === "[") {
      const slot = top === undefined ? "" : top.kind === "object" ? (top.key ?? "") : top.index;
      stack.push(
        char === "{"
          ? { parent: top, slot, kind: "object", keys: new Map(), key: undefined }
          : { parent: top, slot, kind: "array", index: 0 },
      );
      offset += 1;
    } else if (char === "}" || char === "]") {
      stack.pop();
      offset += 1;
    } else if (char === ",") {
      if (top?.kind === "object") top.key = undefined;
      if (top?.kind === "array") top.index += 1;
      offset += 1;
    } else if (char === '"') {
      const end = endOfString(text, offset);
      // A string read where an object expects its next key is that key; anywhere else it is a value.
      if (top?.kind === "object" && top.key === undefined) {
        const key = JSON.parse(text.slice(offset, end)) as string;
        const earlier = top.keys.get(key);
        if (earlier !== undefined) {
          return {
            path: pathOf(top),
            key,
            first: lineAndColumn(text, earlier),
            second: lineAndColumn(text, offset),
          };
        }
        top.keys.set(key, offset);
        top.key = key;
      }
      offset = end;
    } else {
      // Whitespace, ":" and the characters of numbers, true, false and null carry no keys.
      offset += 1;
    }
  }
  return undefined;
}

/** 'mcpServers has "fetch" twice (line 3, column 5 and line 9, column 5); keep one.' */
export function describeDuplicateKey({ path, key, first, second }: DuplicateKey): string {
  const where = path.reduce<string>(
    (parent, segment) => (typeof segment === "number" ? `${parent}[${segment}]` : keyPath(parent, segment)),
    "",
  );
  return (
    `${where === "" ? "the top level" : where} has ${JSON.stringify(key)} twice ` +
    `(${describePosition(first)} and ${describePosition(second)}); keep one.`
  );
}

/** The top-level object's own slot is not part of any path. */
function pathOf(frame: Frame): Array<string | number> {
  const path: Array<string | number> = [];
  let at = frame;
  while (at.parent !== undefined) {
    path.unshift(at.slot);
    at = at.parent;
  }
  return path;
}

/** The offset just past the closing quote of the string that opens at `start`. */
function endOfString(text: string, start: number): number {
  let offset = start + 1;
  while (offset < text.length && text[offset] !== '"') offset += text[offset] === "\\" ? 2 : 1;
  return offset + 1;
}
