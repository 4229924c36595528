import { Text as InkText } from "ink";
import type { ReactNode } from "react";

/**
 * An escape sequence mcpterm built itself (an OSC 8 hyperlink around a link it parsed), drawn as
 * it is: the one way past SafeText's cleaning, for text no model, tool or server wrote.
 */
export function TerminalSequence({ sequence }: { sequence: string }): ReactNode {
  return <InkText>{sequence}</InkText>;
}
