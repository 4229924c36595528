import type { Key as InkKey } from "ink";

/**
 * One key press, as the keymap sees it: printable text, a bracketed paste, or a named key with
 * its modifiers (`{name: "w", ctrl: true}` is Ctrl+W, `{name: "left", meta: true}` Alt+←).
 */
export type KeyEvent =
  | { kind: "text"; text: string }
  | { kind: "paste"; text: string }
  | { kind: "key"; name: string; ctrl: boolean; meta: boolean; shift: boolean };

/** Ink's key flags and the names the keymap uses for them. */
const NAMED_KEYS: ReadonlyArray<[keyof InkKey, string]> = [
  ["return", "return"],
  ["escape", "escape"],
  ["tab", "tab"],
  ["backspace", "backspace"],
  ["delete", "delete"],
  ["upArrow", "up"],
  ["downArrow", "down"],
  ["leftArrow", "left"],
  ["rightArrow", "right"],
  ["home", "home"],
  ["end", "end"],
  ["pageUp", "pageup"],
  ["pageDown", "pagedown"],
];

/**
 * Ink 8 parses escape sequences (arrows, Home/End, Delete, Alt+letter) and splits repeated
 * Backspace and Ctrl+C bytes, but hands a run of other bytes over as one string: `ab\tc`, `abc\r`
 * or `ab\x17` typed faster than one read. This turns each of Ink's inputs into the keys in it, in order.
 */
export function keysFromInk(input: string, key: InkKey): KeyEvent[] {
  const modifiers = { ctrl: key.ctrl, meta: key.meta, shift: key.shift };
  const named = NAMED_KEYS.find(([flag]) => key[flag] === true);
  if (named) return [{ kind: "key", name: named[1], ...modifiers }];
  // Ink gives Ctrl+W as "w" with ctrl set, and Alt+B (ESC b) as "b" with meta set.
  if (key.ctrl || key.meta) return input ? [{ kind: "key", name: input.toLowerCase(), ...modifiers }] : [];
  return splitTyped(input);
}

export function pasteKey(text: string): KeyEvent {
  return { kind: "paste", text };
}

/** Printable runs stay one text event; each control byte becomes the key a terminal sends it for. */
export function splitTyped(input: string): KeyEvent[] {
  const events: KeyEvent[] = [];
  let run = "";
  for (const character of input) {
    const control = controlKey(character.codePointAt(0) ?? 0);
    if (control === undefined) {
      run += character;
      continue;
    }
    if (run) events.push({ kind: "text", text: run });
    run = "";
    events.push(control);
  }
  if (run) events.push({ kind: "text", text: run });
  return events;
}

function controlKey(code: number): KeyEvent | undefined {
  const key = (name: string, ctrl = false): KeyEvent => ({
    kind: "key",
    name,
    ctrl,
    meta: false,
    shift: false,
  });
  if (code === 0x0d) return key("return");
  if (code === 0x09) return key("tab");
  if (code === 0x1b) return key("escape");
  // Terminals send DEL (0x7f) for Backspace; BS (0x08) is Ctrl+H, which means Backspace too.
  if (code === 0x7f || code === 0x08) return key("backspace");
  if (code === 0x00) return key("space", true);
  if (code >= 0x01 && code <= 0x1a) return key(String.fromCharCode(code + 0x60), true);
  if (code >= 0x1c && code <= 0x1f) return key(String.fromCharCode(code + 0x40), true);
  return undefined;
}
