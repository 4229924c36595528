import type { AttachedContext, MessageAttachment } from "../agent/events.js";
import type { SecretRedactor } from "../policy/redact-secrets.js";
import { DEFAULT_RESULT_CHAR_LIMIT } from "../policy/result-text.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import { formatBytes, pluralize } from "../text/index.js";

/** What was piped into stdin: whole in `head`, or its start and its end (`tail`) with the middle left out. */
export interface PipedBytes {
  /** Bytes piped in, all of them. */
  total: number;
  /** Line feeds among them, all of them. */
  newlines: number;
  head: Buffer;
  tail?: Buffer;
}

/** Of the characters the model gets, how many come from the start when the text must be cut; the rest are its end. */
const HEAD_SHARE = 0.2;
/** Characters read past a cut before redacting, so a secret cut by it is still found whole. */
const REDACT_MARGIN = 4096;
/** NUL in the first bytes means a binary stream (an image, an archive), as it does for a file. */
const SNIFF_BYTES = 8000;

export type PipedAttachment =
  { ok: true; attached: AttachedContext | undefined } | { ok: false; reason: string };

/**
 * Text piped into a `-p <text>` run, attached for the model after the prompt's own words as a
 * file is: redacted with the full rule set, stripped of terminal controls and hidden characters,
 * fenced as untrusted data (a log or a diff may hold instructions), and cut to `limit`
 * characters — its start and, most of them, its end, where a build's log says what failed.
 * Nothing but blank space attaches nothing; a binary stream stops the run.
 */
export async function attachPipedText(
  piped: PipedBytes,
  redactor: SecretRedactor,
  limit = DEFAULT_RESULT_CHAR_LIMIT,
): Promise<PipedAttachment> {
  if (isBinary(piped))
    return {
      ok: false,
      reason:
        "What was piped into stdin is not text (it holds NUL bytes); pipe text into mcpterm, or give it < /dev/null to run without it.",
    };
  const encoding = utf16(piped.head) ?? "utf-8";
  const head = decode(piped.head, encoding);
  const tail = piped.tail ? decode(endAtCharacter(piped.tail, piped.total, encoding), encoding, "cut") : "";
  const whole = piped.tail === undefined && head.length <= limit;
  if (head.trim() === "" && tail.trim() === "") return { ok: true, attached: undefined };
  const headChars = whole ? head.length : Math.floor(limit * HEAD_SHARE);
  const tailChars = whole ? 0 : limit - headChars;
  // Each part is redacted with a margin past its cut, then cut: a secret across the cut is still whole to find.
  const start = await redactor.redact(head.slice(0, headChars + REDACT_MARGIN));
  const end = whole
    ? undefined
    : await redactor.redact((piped.tail ? tail : head.slice(headChars)).slice(-(tailChars + REDACT_MARGIN)));
  const startText = sanitizeForTerminal(start.text);
  const body =
    end === undefined
      ? startText
      : `${firstLines(startText, headChars)}\n[… ${formatBytes(piped.total)} were piped in: the middle is left out, the start and the end are here …]\n${lastLines(sanitizeForTerminal(end.text), tailChars)}`;
  const secrets = start.rules.length + (end?.rules.length ?? 0);
  const lines = piped.newlines + (endsWithoutNewline(piped) ? 1 : 0);
  const attachment: MessageAttachment = {
    kind: "stdin",
    server: "",
    name: "stdin",
    detail: [
      `${formatBytes(piped.total)}, ${pluralize(lines, "line")}`,
      secrets > 0 ? `${pluralize(secrets, "secret")} redacted` : undefined,
      end === undefined ? undefined : "its middle left out",
    ]
      .filter((part) => part !== undefined)
      .join(", "),
  };
  return { ok: true, attached: { attachments: [attachment], forModel: fence(body) } };
}

/** At most `chars` characters of the start of `text`, ending at a line's end where one is near the cut. */
function firstLines(text: string, chars: number): string {
  const cut = text.slice(0, chars);
  const lineEnd = cut.lastIndexOf("\n");
  return lineEnd >= chars * 0.8 ? cut.slice(0, lineEnd) : cut;
}

/** At most `chars` characters of the end of `text`, starting at a line's start where one is near the cut. */
function lastLines(text: string, chars: number): string {
  const cut = text.slice(-chars);
  const lineEnd = cut.indexOf("\n");
  return lineEnd !== -1 && lineEnd < chars * 0.2 ? cut.slice(lineEnd + 1) : cut;
}

function isBinary(piped: PipedBytes): boolean {
  if (utf16(piped.head) !== undefined) return false;
  return (
    piped.head.subarray(0, SNIFF_BYTES).includes(0) ||
    (piped.tail?.subarray(-SNIFF_BYTES).includes(0) ?? false)
  );
}

function utf16(bytes: Buffer): "utf-16le" | "utf-16be" | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

/**
 * Bytes as text, leniently (a log in Latin-1 still reads, its odd bytes as U+FFFD; the decoder
 * drops a byte-order mark); the end part loses the character its cut split. Line ends become "\n".
 */
function decode(bytes: Buffer, encoding: string, cut?: "cut"): string {
  const text = new TextDecoder(encoding).decode(bytes);
  return (cut ? text.replace(/^\uFFFD+/, "") : text).replace(/\r\n?/g, "\n");
}

/** The end part of UTF-16 text starting on a whole code unit (it was cut at any byte). */
function endAtCharacter(tail: Buffer, total: number, encoding: string): Buffer {
  return encoding !== "utf-8" && (total - tail.length) % 2 === 1 ? tail.subarray(1) : tail;
}

function endsWithoutNewline(piped: PipedBytes): boolean {
  const last = (piped.tail ?? piped.head).at(-1);
  return last !== undefined && last !== 10;
}

function fence(body: string): string {
  // Any spelling of the fence's tags inside is defused, so the text cannot close it and go on as the user.
  const text = body.replace(/\n$/, "").replace(/<(?=\s*\/?\s*stdin\b)/gi, "&lt;");
  return `<stdin trust="untrusted">\n${text}\n</stdin>`;
}
