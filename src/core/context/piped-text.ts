import type { AttachedContext, MessageAttachment } from "../agent/events.js";
import { SECRET_REACH } from "../policy/cleaned-part.js";
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
/** NUL in the first bytes means a binary stream (an image, an archive), as it does for a file. */
const SNIFF_BYTES = 8000;

export type PipedAttachment =
  { ok: true; attached: AttachedContext | undefined } | { ok: false; reason: string };

/**
 * Text piped into a `-p <text>` run, attached for the model after the prompt's own words as a
 * file is: stripped of terminal controls and hidden characters (a progress bar's frames too, as
 * a terminal overwrites them), redacted with the full rule set, fenced as untrusted data (a log
 * or a diff may hold instructions), and cut to `limit` characters — its start and, most of them,
 * its end, where a build's log says what failed. Nothing but blank space attaches nothing; a
 * binary stream stops the run.
 */
export async function attachPipedText(
  piped: PipedBytes,
  redactor: SecretRedactor,
  limit = DEFAULT_RESULT_CHAR_LIMIT,
): Promise<PipedAttachment> {
  const binary = binaryReason(piped);
  if (binary !== undefined) return { ok: false, reason: binary };
  const encoding = utf16(piped.head) ?? "utf-8";
  // Where the middle was dropped, what lies next to the cut goes first, in characters as read:
  // measured after cleaning, a margin could take a whole part (a progress bar's frames shrink
  // 256 KB to a line).
  const read = decode(piped.head, encoding);
  const head = asShown(piped.tail ? beforeCutEnd(read) : read);
  const tail = piped.tail
    ? pastKeyEnd(asShown(pastCutStart(decode(endAtCharacter(piped.tail, piped.total, encoding), encoding))))
    : "";
  if (head.trim() === "" && tail.trim() === "") return { ok: true, attached: undefined };
  // Each part is redacted whole (at most the bytes kept in memory): a secret is found in its own
  // context, wherever the cut falls. Where the middle was dropped, each part ends or begins at
  // that cut, maybe inside a secret no rule finds without its other end: left out too.
  const start = await redactor.redact(head);
  const end = piped.tail ? await redactor.redact(tail) : undefined;
  const whole = end === undefined && start.text.length <= limit;
  const headChars = Math.floor(limit * HEAD_SHARE);
  const tailChars = limit - headChars;
  const body = whole
    ? start.text
    : `${firstLines(start.text, headChars)}\n[… ${formatBytes(piped.total)} were piped in: the middle is left out, the start and the end are here …]\n${lastLines(end?.text ?? start.text.slice(headChars), tailChars)}`;
  // Counted in what is sent: the parts redacted hold more than the model gets.
  const secrets = body.split(REDACTED_MARK).length - 1;
  const attachment: MessageAttachment = {
    kind: "stdin",
    server: "",
    name: "stdin",
    detail: [
      `${formatBytes(piped.total)}, ${pluralize(lineCount(piped, encoding), "line")}`,
      secrets > 0 ? `${pluralize(secrets, "secret")} redacted` : undefined,
      whole ? undefined : "its middle left out",
    ]
      .filter((part) => part !== undefined)
      .join(", "),
  };
  return { ok: true, attached: { attachments: [attachment], forModel: fence(body) } };
}

/**
 * Text as a terminal would show it: controls, escape sequences and hidden characters gone, and
 * of a line a carriage return rewrote (a progress bar's frames), only what was written last.
 * Carriage returns that end a line (`\r\n`, `\r\r\n`, a last line's `\r`) rewrite nothing.
 */
function asShown(text: string): string {
  const lines = text.split("\n").map((line) => {
    // A loop, not /\r+$/: that backtracks over every run of returns not at the end, quadratically.
    let end = line.length;
    while (end > 0 && line.charCodeAt(end - 1) === CARRIAGE_RETURN) end -= 1;
    return line.slice(line.lastIndexOf("\r", end - 1) + 1, end);
  });
  return sanitizeForTerminal(lines.join("\n"));
}

const CARRIAGE_RETURN = 13;
/** How every redaction begins (`[REDACTED]`, `[REDACTED: …]`). */
const REDACTED_MARK = "[REDACTED";

/** At most `chars` characters of the start of `text`, ending at a line's end where one is near the cut. */
function firstLines(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.slice(0, chars);
  const lineEnd = cut.lastIndexOf("\n");
  return lineEnd >= chars * 0.8 ? cut.slice(0, lineEnd) : cut;
}

/** At most `chars` characters of the end of `text`, starting at a line's start where one is near the cut. */
function lastLines(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.slice(-chars);
  const lineEnd = cut.indexOf("\n");
  return lineEnd !== -1 && lineEnd < chars * 0.2 ? cut.slice(lineEnd + 1) : cut;
}

/** Why the bytes are not text (NUL bytes, as in an image or an archive), or undefined when they are. */
function binaryReason(piped: PipedBytes): string | undefined {
  if (utf16(piped.head) !== undefined) return undefined;
  const sniffed = [piped.head.subarray(0, SNIFF_BYTES), piped.tail?.subarray(-SNIFF_BYTES)];
  if (!sniffed.some((bytes) => bytes?.includes(0))) return undefined;
  if (looksLikeUtf16(piped.head.subarray(0, SNIFF_BYTES)))
    return "What was piped into stdin looks like UTF-16 without a byte-order mark, which mcpterm does not guess; convert it first (iconv -f UTF-16LE -t UTF-8), or run again with < /dev/null to go without it.";
  return "What was piped into stdin is not text (it holds NUL bytes); pipe text into mcpterm, or run again with < /dev/null to go without it.";
}

/** Every other byte NUL, as ASCII in UTF-16 is. */
function looksLikeUtf16(bytes: Buffer): boolean {
  if (bytes.length < 4) return false;
  let evenNuls = 0;
  let oddNuls = 0;
  for (let index = 0; index < bytes.length; index += 1)
    if (bytes[index] === 0) {
      if (index % 2 === 0) evenNuls += 1;
      else oddNuls += 1;
    }
  const half = Math.floor(bytes.length / 2);
  return Math.max(evenNuls, oddNuls) >= half * 0.9 && Math.min(evenNuls, oddNuls) === 0;
}

function utf16(bytes: Buffer): "utf-16le" | "utf-16be" | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

/** Bytes as text, leniently (a log in Latin-1 still reads, its odd bytes as U+FFFD; the decoder drops a byte-order mark). */
function decode(bytes: Buffer, encoding: string): string {
  return new TextDecoder(encoding).decode(bytes);
}

/**
 * The end part without its start: it begins wherever the bytes kept in memory began, maybe inside
 * a secret that cannot be found without its own start (a key's body without its BEGIN line), so
 * what a secret may reach from there, and the rest of that line, is never sent.
 */
function pastCutStart(text: string): string {
  const lineEnd = text.indexOf("\n", SECRET_REACH);
  // A line that runs on far past the margin (a 250 KB last line holding the error) is kept from there.
  return text.slice(lineEnd === -1 || lineEnd > 2 * SECRET_REACH ? SECRET_REACH : lineEnd + 1);
}

/**
 * The end part without the rest of a private key whose BEGIN line went with the dropped middle:
 * its lines reached past the margin (escape sequences around each make a key far longer as read
 * than as shown), and no rule finds a key's body without its BEGIN line. Up to its END line.
 */
function pastKeyEnd(text: string): string {
  const end = KEY_END.exec(text);
  if (end === null) return text;
  const begin = text.indexOf("-----BEGIN");
  if (begin !== -1 && begin < end.index) return text;
  const lineEnd = text.indexOf("\n", end.index);
  return lineEnd === -1 ? "" : text.slice(lineEnd + 1);
}

const KEY_END = /-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/;

/** The start part without its end, which the dropped middle cut as pastCutStart says. */
function beforeCutEnd(text: string): string {
  const cut = text.length - SECRET_REACH;
  const lineStart = text.lastIndexOf("\n", cut);
  return text.slice(0, lineStart === -1 || lineStart < cut - SECRET_REACH ? Math.max(0, cut) : lineStart + 1);
}

/** The end part of UTF-16 text starting on a whole code unit (it was cut at any byte). */
function endAtCharacter(tail: Buffer, total: number, encoding: string): Buffer {
  return encoding !== "utf-8" && (total - tail.length) % 2 === 1 ? tail.subarray(1) : tail;
}

/**
 * Lines piped in: its line feeds, and one more for a last line without one. UTF-16 is counted in
 * what was kept of it, where a line feed's byte is also part of other characters.
 */
function lineCount(piped: PipedBytes, encoding: string): number {
  if (encoding !== "utf-8") {
    const text = decode(Buffer.concat([piped.head, piped.tail ?? Buffer.alloc(0)]), encoding);
    return text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  }
  const last = (piped.tail ?? piped.head).at(-1);
  return piped.newlines + (last !== undefined && last !== 10 ? 1 : 0);
}

function fence(body: string): string {
  // Any spelling of the fence's tags inside is defused, so the text cannot close it and go on as the user.
  const text = body.replace(/\n$/, "").replace(/<(?=\s*\/?\s*stdin\b)/gi, "&lt;");
  return `<stdin trust="untrusted">\n${text}\n</stdin>`;
}
