/**
 * Raw bytes as terminals send them, one read per string, and the prompt they leave: the App's
 * own keys (test/ui/app-raw-keys.test.tsx), and the early frame's replay of keys typed before
 * Ink loaded (test/ui/typed-keys.test.ts), which must agree with it. `completes` marks a case
 * that relies on Tab completion, which only the App has.
 */
export const RAW_KEY_CASES: ReadonlyArray<[name: string, chunks: string[], prompt: string]> = [
  ["Backspace (DEL) deletes backwards", ["abc", "\u007f"], "ab"],
  ["two Backspaces in one read delete two", ["abc", "\u007f\u007f"], "a"],
  ["Ctrl+H (BS) deletes backwards, twice in one read", ["abc", "\u0008\u0008"], "a"],
  ["typing and Backspaces in one read apply in order", ["ab\u007fc\u007f\u007fxy"], "xy"],
  ["Delete deletes forwards: ab|c → ab", ["abc", "\u001b[D", "\u001b[3~"], "ab"],
  ["← and → move: a|b then X → aXb, → then Y", ["ab", "\u001b[D", "X", "\u001b[C", "Y"], "aXbY"],
  ["Home (CSI H) and End (CSI F)", ["bc", "\u001b[H", "a", "\u001b[F", "d"], "abcd"],
  ["Home (CSI 1~) and End (CSI 4~)", ["bc", "\u001b[1~", "a", "\u001b[4~", "d"], "abcd"],
  ["Home and End in application mode (SS3 H/F)", ["bc", "\u001bOH", "a", "\u001bOF", "d"], "abcd"],
  ["Ctrl+A and Ctrl+E", ["bc", "\u0001", "a", "\u0005", "d"], "abcd"],
  ["Ctrl+W deletes a word", ["run the tool", "\u0017"], "run the"],
  ["Alt+Backspace deletes one path component", ["open src/ui/App", "\u001b\u007f"], "open src/ui/"],
  ["Ctrl+U deletes to the line start", ["one two", "\u001b[D", "\u0015"], "o"],
  ["Ctrl+K deletes to the line end", ["one two", "\u0001", "\u001bf", "\u000b"], "one"],
  ["Alt+B and Alt+F move by words", ["one two", "\u001bb", "X", "\u001bf", "Y"], "one XtwoY"],
  ["Ctrl+← and Ctrl+→ move by words", ["one two", "\u001b[1;5D", "X", "\u001b[1;5C", "Y"], "one XtwoY"],
  ["Alt+← and Alt+→ move by words", ["one two", "\u001b[1;3D", "X", "\u001b[1;3C", "Y"], "one XtwoY"],
  ["Alt+D deletes the next word", ["one two", "\u0001", "\u001bd"], " two"],
  ["Ctrl+D deletes forwards when there is text", ["abc", "\u0001", "\u0004"], "bc"],
  ["Tab in the same read as letters completes", ["wri\tx"], "write_note x"],
  ["Ctrl keys in the same read as text apply in order", ["one two\u0017three\u0001X\u0005Y"], "Xone threeY"],
  ["escape sequences in the same read as text apply in order", ["ab\u001b[Dc\u007fX"], "aXb"],
  ["Alt+Enter starts a new line", ["one", "\u001b\r", "two"], "one\ntwo"],
  [
    "a bracketed paste keeps its line breaks and sends nothing",
    ["\u001b[200~one\ntwo\r\nthree\u001b[201~"],
    "one\ntwo\nthree",
  ],
  ["a paste of control sequences inserts only their text", ["\u001b[200~a\u001b[2Jb\u001b[201~"], "ab"],
];

/** Cases that need the App's Tab completion. */
export const COMPLETING_CASES: ReadonlySet<string> = new Set(["Tab in the same read as letters completes"]);
