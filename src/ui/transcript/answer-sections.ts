import { evidenceLines, type EvidenceSection } from "../../core/agent/answer-evidence.js";
import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";
import type { NewItem } from "./transcript-items.js";

/**
 * A finished stretch of an answer as transcript items: the body as it is, and the confirmed and
 * inferred parts (see answer-evidence.ts) as items of their own, drawn apart. `from` is the part
 * the reply was in when the stretch began, since a part goes on across stretches. Without
 * `backed` (no tool answered, no passage, nothing attached) a "confirmed" part is plain text.
 */
export function answerItems(
  text: string,
  from: EvidenceSection,
  first: boolean,
  backed = true,
): { items: NewItem[]; section: EvidenceSection } {
  const groups: Array<{ section: EvidenceSection; label: string | undefined; lines: string[] }> = [];
  let section = from;
  for (const line of evidenceLines(text, from)) {
    section = line.section;
    const last = groups.at(-1);
    if (line.heading || !last) {
      const lines = line.heading ? (line.heading.rest ? [line.heading.rest] : []) : [line.line];
      groups.push({ section: line.section, label: line.heading?.label, lines });
    } else last.lines.push(line.line);
  }
  const items = groups
    .map((group) => ({ ...group, text: sanitizeForTerminal(group.lines.join("\n").trim()) }))
    .filter((group) => group.label !== undefined || group.text !== "")
    .map((group, index): NewItem => {
      // A "confirmed" part in a turn where nothing could confirm it is a claim: plain text.
      const unbacked = group.section === "confirmed" && !backed;
      const label = group.label === undefined ? undefined : sanitizeForTerminal(group.label);
      return {
        kind: "assistant",
        text: unbacked
          ? `${label ?? "Confirmed"} (nothing in this turn backs it): ${group.text}`
          : group.text,
        first: first && index === 0,
        ...(group.section === "body" || unbacked ? {} : { section: group.section }),
        ...(label === undefined || unbacked ? {} : { label }),
      };
    });
  return { items, section };
}
