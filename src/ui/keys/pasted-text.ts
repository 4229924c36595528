import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";

/**
 * Pure: text pasted (or typed in one read) as the prompt takes it. Terminals end the lines of a
 * bracketed paste with CR (xterm, GNOME Terminal, iTerm2, tmux), so CR and CRLF become line
 * breaks first; only then is what could drive the terminal removed, CR among it.
 */
export function pastedText(text: string): string {
  return sanitizeForTerminal(text.replace(/\r\n?/g, "\n"));
}
