import type { Part } from "../parts/fit-parts.js";
import type { KeyMode } from "../keys/keymap.js";
import type { QueueView } from "../transcript/transcript-types.js";

export interface HintContext {
  busy: boolean;
  /** The prompt holds text. */
  draft: boolean;
  queue: QueueView;
  /** Ctrl+D was pressed once on the empty prompt while a turn runs or messages wait: the next one exits. */
  leaving?: boolean;
  /**
   * A paste's end is owed (open-paste.ts): whatever the mode, what comes is pasted text and Enter
   * adds a line until Esc.
   */
  pasteOwed?: boolean;
}

/** A hint; the earlier in a list, the later it gives way in a narrow window. */
export type Hint = [text: string, short?: string];

/**
 * What a panel's keys do while the prompt holds a draft: letters type into it, so only Enter,
 * Esc (`esc`: "deny", "cancel") and the arrows answer. The status line and the panels share it.
 */
export function whileDrafting(esc: string): Hint[] {
  return [
    ["Enter confirm"],
    [`Esc ${esc}`],
    ["↑/↓ choose"],
    ["letters type into your draft", "typing edits the draft"],
  ];
}

/**
 * Said first, whatever else the keys do, after one Ctrl+D on the empty prompt during a turn or
 * with messages queued: what the second would lose.
 */
function leavingHint({ busy, queue }: HintContext): Hint {
  if (busy) return ["Press Ctrl+D again to exit; the running turn stops", "Ctrl+D again to exit"];
  return [`Press Ctrl+D again to exit; ${queuedNotSent(queue.messages.length)}`, "Ctrl+D again to exit"];
}

/** What an exit with messages held after a cancelled turn loses, in words. */
function queuedNotSent(count: number): string {
  return `${count === 1 ? "the queued message is" : `${count} queued messages are`} not sent`;
}

/** Said alone while a paste's end is owed: the mode's own hints (Enter send…) would not hold. */
const PASTE_OWED_HINTS: Hint[] = [
  ["paste not ended: Enter adds a line", "Enter adds a line"],
  ["Esc type as usual"],
  ["Ctrl+C or Ctrl+D as usual"],
];

/** Pure: what the keys do now, most important first, for `fitParts`. */
export function keyHints(mode: KeyMode, context: HintContext): Part[] {
  const own = context.pasteOwed === true ? PASTE_OWED_HINTS : HINTS[mode](context);
  const hints = context.leaving === true ? [leavingHint(context), ...own] : own;
  return hints.map(([text, short], index) => ({
    text,
    ...(short === undefined ? {} : { short }),
    priority: hints.length - index,
    tag: undefined,
  }));
}

const HINTS: Readonly<Record<KeyMode, (context: HintContext) => Hint[]>> = {
  approval: ({ draft }) =>
    draft
      ? whileDrafting("deny")
      : [
          ["Enter confirm"],
          ["Esc deny"],
          ["↑/↓ or 1–5 choose", "↑/↓ choose"],
          ["y once"],
          ["n deny"],
          ["a always"],
          ["p in this project", "p project"],
          ["d deny with a reason", "d reason"],
        ],
  menu: () => [["↑/↓ choose"], ["Tab take"], ["Enter take and run", "Enter take"], ["Esc close"]],
  "approval-reason": () => [
    ["Enter deny with it", "Enter deny"],
    ["Esc deny without it", "Esc no reason"],
    ["type the reason"],
  ],
  sampling: ({ draft }) =>
    draft
      ? whileDrafting("deny")
      : [
          ["Enter confirm"],
          ["Esc deny"],
          ["↑/↓ or 1–4 choose", "↑/↓ choose"],
          ["y send"],
          ["e edit"],
          ["n deny"],
        ],
  "sampling-edit": () => [
    ["Enter send it edited", "Enter send"],
    ["Esc back to the list", "Esc back"],
    ["Alt+Enter new line", "Alt+Enter newline"],
  ],
  "sampling-reason": () => [
    ["Enter deny with it", "Enter deny"],
    ["Esc deny without it", "Esc no reason"],
    ["type the reason"],
  ],
  url: ({ draft }) =>
    draft
      ? whileDrafting("cancel")
      : [["Enter confirm"], ["Esc cancel"], ["y open"], ["n decline"], ["↑/↓ or 1–3 choose", "↑/↓ choose"]],
  form: () => [
    ["Tab/↓ next field", "Tab next"],
    ["Shift+Tab/↑ back", "S-Tab back"],
    ["Esc cancel"],
    ["Space toggles, ←/→ choose", "Space/←/→"],
  ],
  inspector: () => [
    ["Esc or Ctrl+O close", "Esc close"],
    ["PgUp/PgDn j/k g/G scroll", "j/k scroll"],
    ["↑/↓ other panels", "↑/↓ panels"],
    ["Enter print in full", "Enter print"],
  ],
  // Messages held after a cancelled turn are lost by the exit: said, as the second Ctrl+D says it.
  "exit-armed": ({ queue }) => {
    const count = queue.messages.length;
    if (count === 0) return [["Press Ctrl+C again to exit", "Ctrl+C again to exit"]];
    return [[`Press Ctrl+C again to exit; ${queuedNotSent(count)}`, "Ctrl+C again to exit"]];
  },
  "ctrl-x": () => [
    ["Ctrl+E edit in $EDITOR", "^E editor"],
    ["another key cancels", "cancel"],
  ],
  prompt: ({ busy, draft, queue }) => {
    const queued = queue.messages.length > 0;
    if (busy)
      return [
        ["Esc or Ctrl+C cancel the turn", "Esc cancel"],
        ["Enter queue a message", "Enter queue"],
        ...(queued && !draft ? [["↑ edit the last queued", "↑ edit queued"] as Hint] : []),
        ["Ctrl+O inspect the latest panel", "Ctrl+O inspect"],
        ["/commands run at once", "/cmds run"],
      ];
    if (queued && !draft)
      return [
        ["Enter send the next queued", "Enter send next"],
        ["↑ edit the last queued", "↑ edit"],
        ["Ctrl+D exit"],
      ];
    return [
      ["Enter send"],
      ["Ctrl+D exit"],
      ["/help"],
      ["\\+Enter or Alt+Enter new line", "Alt+Enter newline"],
      ["↑/↓ history", "↑ history"],
      ["Tab complete"],
      ["Ctrl+O panels", "^O panels"],
      ["Ctrl+G editor", "^G editor"],
    ];
  },
};
