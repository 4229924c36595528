import { Text as InkText, type TextProps } from "ink";
import { Children, type ReactNode } from "react";
import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";

/**
 * Ink's Text, the only one the TUI draws with (lint keeps Ink's own out of src/ui): every string
 * it is given is sanitized as it is drawn — escape sequences, controls and hidden characters
 * removed — so text from a model, a tool, a server or a file cannot drive the terminal, even on
 * a path that forgot to clean it first. Nested elements clean their own strings; mcpterm's own
 * sequences (a hyperlink) go through TerminalSequence.
 */
export function Text({ children, ...props }: TextProps): ReactNode {
  return (
    <InkText {...props}>
      {Children.map(children, (child) => (typeof child === "string" ? sanitizeForTerminal(child) : child))}
    </InkText>
  );
}
