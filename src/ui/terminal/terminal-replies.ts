/* eslint-disable no-control-regex -- matching the terminal's escape sequences is the point of this file. */
/**
 * What a terminal sends on its own, as answers to queries, kept apart from what a person types.
 * mcpterm asks the terminal nothing, but a program it hands the terminal to (vim, any external
 * editor) does as it starts and stops: where the cursor is (`ESC[6n` → `ESC[2;2R`), what the
 * terminal is (`ESC[c` → `ESC[?1;2c`), its background colour (`ESC]11;?` → `ESC]11;rgb:…`
 * ended by BEL or ST). Answers that arrive once that program has gone are meant for it: taken
 * as keys, they would type `11;rgb:…` into the prompt and their BEL (Ctrl+G) would open the
 * editor again.
 */

const ESC = "\u001b";
const BEL = "\u0007";
const ST = `${ESC}\\`;

/**
 * Whole CSI replies: a cursor position (`ESC[12;40R`), device attributes (`ESC[?1;2c`,
 * `ESC[>0;276;0c`), a status report (`ESC[0n`), a mode report (`ESC[?2004;2$y`), the kitty
 * keyboard flags (`ESC[?0u`) and window sizes (`ESC[8;40;120t`). No key takes these shapes but
 * a modified F3 (`ESC[1;2R`, also a cursor on row 1), which mcpterm binds to nothing.
 */
const CSI_REPLY = /^\u001b\[(?:\d+;\d+R|[?>=][\d;]*c|\d+n|\?[\d;]+\$y|\?\d*u|\d+;\d+;\d+t)/;
/** The start of a CSI reply, cut off by the end of a read: held for the next read to finish. */
const CSI_REPLY_START = /^\u001b\[[?>=]?[\d;]+\$?$/;

/**
 * String replies (OSC, DCS, APC) run to BEL or ST and begin with digits (`ESC]11;`, `ESC P1$r`)
 * or, for kitty's graphics answers, `G` (`ESC_G`). An `ESC ]` followed by anything else is a
 * person's Alt+] and what they typed next.
 */
const STRING_REPLY_START = /^\u001b(?:[\]P][\d>!]|_G)/;
/** A string reply is never this long; past it the rest is thrown away rather than typed. */
const LONGEST_REPLY = 4096;

/** Pure, over a stream of reads: each read's text with every whole terminal reply taken out. */
export class TerminalReplyFilter {
  /** A reply begun in one read whose end has not come yet. */
  private held = "";

  /** The keys in `chunk`, in order; a reply cut off at its end is held for the next read. */
  push(chunk: string): string {
    const input = this.held + chunk;
    this.held = "";
    let keys = "";
    let index = 0;
    while (index < input.length) {
      const escape = input.indexOf(ESC, index);
      if (escape === -1) return keys + input.slice(index);
      keys += input.slice(index, escape);
      const rest = input.slice(escape);
      const reply = replyLength(rest);
      if (reply === "partial") {
        // Unbounded junk is no reply anyone waits for: dropped, never typed.
        if (rest.length <= LONGEST_REPLY) this.held = rest;
        return keys;
      }
      if (reply > 0) {
        index = escape + reply;
        continue;
      }
      keys += ESC;
      index = escape + 1;
    }
    return keys;
  }
}

/** How long the reply at the start of `text` is: 0 when none starts there, "partial" when cut off. */
function replyLength(text: string): number | "partial" {
  const csi = CSI_REPLY.exec(text);
  if (csi) return csi[0].length;
  if (CSI_REPLY_START.test(text)) return "partial";
  // Two characters may still become a reply, or be a person's Alt+]: wait for one more.
  if (text.length === 2 && /^\u001b[\]P_]$/.test(text)) return "partial";
  if (!STRING_REPLY_START.test(text)) return 0;
  const bell = text.indexOf(BEL);
  const terminator = text.indexOf(ST, 1);
  if (bell === -1 && terminator === -1) return "partial";
  if (terminator === -1 || (bell !== -1 && bell < terminator)) return bell + 1;
  return terminator + ST.length;
}
