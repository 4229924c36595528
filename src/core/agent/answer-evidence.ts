/**
 * The two labelled parts the system prompt asks an answer that used tools or knowledge to end
 * with: what is confirmed (each point citing its tool call or `[n]` passage) and what is
 * inferred (to verify). Models spell the headings a little differently, so a heading is read
 * loosely (`**Confirmed:**`, `### What is confirmed`, `Inferred (to verify):`, `✅ Verified`),
 * but only as a line of its own kind, outside code: prose that starts "Confirmed that …" stays
 * prose. The parts come in order (confirmed, then inferred; either may be missing), and every
 * line of the answer lands in exactly one part, so nothing is lost.
 */
export type EvidenceSection = "body" | "confirmed" | "inferred";

export interface EvidenceHeading {
  section: Exclude<EvidenceSection, "body">;
  /** The heading's words as the model wrote them, without Markdown: `Inferred (to verify)`. */
  label: string;
  /** Text after the heading on the same line (`**Confirmed:** the disk is full [1]`). */
  rest: string;
}

export interface AnswerEvidence {
  body: string;
  confirmed: string | undefined;
  inferred: string | undefined;
}

const LABEL =
  /^(?:what(?:'s| is| was| we| i)\s+(?:know\s+)?)?(confirmed|verified|inferred|inferences?|to verify|unverified|unconfirmed)\b(.*)$/i;
/** What may follow the label in a heading: a parenthesis, a dash or slash and words, or a noun. */
const QUALIFIER = /^\s*(?:\(.*\)|[-—–/].*|(?:by|from|with)\s.*|(?:facts?|points?|findings?|so far))?\s*$/i;

/** The heading a line is, if it is one; `line` is one line of the answer. */
export function evidenceHeading(line: string): EvidenceHeading | undefined {
  let text = line.trim();
  const marked = /^#{1,6}\s+/.test(text);
  text = text
    .replace(/^#{1,6}\s+/, "")
    .replace(/^[-*+]\s+(?=[*_])/, "")
    .replace(/^(?:\p{Extended_Pictographic}|\u2713|\uFE0F|\u200D|\s)+/u, "");
  let head: string;
  let rest: string;
  const bold = /^([*_]{1,3})(.+?)\1(.*)$/.exec(text);
  if (bold) {
    head = bold[2] ?? "";
    rest = bold[3] ?? "";
  } else {
    const colon = text.search(/[:：]/);
    // Without Markdown around it, only "Label:" is a heading; "Confirmed that …" is a sentence.
    if (colon < 0 && !marked) return undefined;
    head = colon < 0 ? text : text.slice(0, colon);
    rest = colon < 0 ? "" : text.slice(colon);
  }
  head = head
    .replace(/[:：]\s*$/, "")
    .replace(/^[^\p{L}]+/u, "")
    .trim();
  const match = LABEL.exec(head);
  if (!match || !QUALIFIER.test(match[2] ?? "")) return undefined;
  const word = (match[1] ?? "").toLowerCase();
  return {
    section: word === "confirmed" || word === "verified" ? "confirmed" : "inferred",
    label: head,
    rest: rest.replace(/^\s*[:：]?\s*/, "").trim(),
  };
}

/** Whether a heading for `next` may start a part after `current`: confirmed, then inferred, once each. */
export function startsSection(current: EvidenceSection, next: EvidenceHeading["section"]): boolean {
  return next === "confirmed" ? current === "body" : current !== "inferred";
}

/** Lines outside fenced code, with where each part starts: one walk for the TUI and for JSON. */
export function evidenceLines(
  text: string,
  from: EvidenceSection = "body",
): Array<{ line: string; section: EvidenceSection; heading: EvidenceHeading | undefined }> {
  let section = from;
  let fenced = false;
  return text.split("\n").map((line) => {
    if (/^\s{0,3}(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : evidenceHeading(line);
    if (heading && startsSection(section, heading.section)) {
      section = heading.section;
      return { line, section, heading };
    }
    return { line, section, heading: undefined };
  });
}

/** Pure: an answer split into its body and its confirmed and inferred parts (undefined when absent). */
export function splitEvidence(answer: string): AnswerEvidence {
  const parts: Record<EvidenceSection, string[] | undefined> = {
    body: [],
    confirmed: undefined,
    inferred: undefined,
  };
  for (const { line, section, heading } of evidenceLines(answer)) {
    const part = (parts[section] ??= []);
    if (heading) {
      if (heading.rest) part.push(heading.rest);
    } else part.push(line);
  }
  const joined = (lines: string[] | undefined): string | undefined => lines?.join("\n").trim();
  return {
    body: joined(parts.body) ?? "",
    confirmed: joined(parts.confirmed),
    inferred: joined(parts.inferred),
  };
}
