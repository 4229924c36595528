import { lstat, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import type { AttachedContext, MessageAttachment } from "../agent/events.js";
import { isWithinPath } from "../config/inside-folder.js";
import { decodeText } from "../kb/file-read.js";
import { isKnownBinary } from "../kb/file-kind.js";
import type { SecretRedactor } from "../policy/redact-secrets.js";
import { cleanedPart } from "../policy/cleaned-part.js";
import { capText, DEFAULT_RESULT_CHAR_LIMIT } from "../policy/result-text.js";
import { cleanServerText } from "../policy/server-text.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import { countLines, formatBytes } from "../text/index.js";
import { findMentions } from "./mentions.js";
import { isSecretFile } from "./secret-files.js";

/** Files larger than this are not read at all: a mention is for a file a person can read, not a dump. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** `@path` in a message, as typed: any `@word` that is not a resource mention (`@server:uri`). */
const FILE_MENTION = /(?<=^|\s)@(\S+)/g;
/** Characters that end a sentence rather than a path, when the path with them names no file. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}>'"]+$/;

/** The `@path` words of a message, in order, each once; resource mentions are not among them. */
export function findFileMentions(text: string): string[] {
  const resources = new Set(findMentions(text).map((mention) => mention.text));
  const found = new Set<string>();
  for (const match of text.matchAll(FILE_MENTION)) {
    if (!resources.has(match[0]) && match[1]) found.add(match[1]);
  }
  return [...found];
}

/** One mention, read: a file's text, a refusal (one clause, for a sentence), or no file at all (it stays text). */
export type FileRead =
  | { kind: "file"; path: string; text: string; bytes: number }
  | { kind: "refused"; path: string; reason: string }
  | { kind: "none" };

/**
 * Reads the file `typed` names in the working folder, after every check: inside the folder (no
 * `..`, no absolute path, no symlink that leads out), a regular file, not a secrets file, at
 * most MAX_FILE_BYTES, and text. A word that names no file is no mention (`@alice` stays text).
 */
export async function readMentionedFile(cwd: string, typed: string): Promise<FileRead> {
  const candidates = [typed, typed.replace(TRAILING_PUNCTUATION, "")].filter(
    (candidate, index, all) => candidate !== "" && all.indexOf(candidate) === index,
  );
  for (const candidate of candidates) {
    const read = await readCandidate(cwd, candidate);
    if (read.kind !== "none") return read;
  }
  return { kind: "none" };
}

async function readCandidate(cwd: string, typed: string): Promise<FileRead> {
  const refused = (reason: string): FileRead => ({ kind: "refused", path: typed, reason });
  if (path.isAbsolute(typed) || /^~|^[A-Za-z]:[\\/]/.test(typed))
    return refused("is outside the working folder; mention files by their path inside it");
  const absolute = path.resolve(cwd, typed);
  if (!isWithinPath(absolute, path.resolve(cwd))) return refused("is outside the working folder");
  let info;
  try {
    info = await lstat(absolute);
  } catch {
    return { kind: "none" };
  }
  let real: string;
  try {
    real = await realpath(absolute);
  } catch {
    return refused("is a link that leads nowhere");
  }
  if (!isWithinPath(real, await realpath(cwd)))
    return refused("is a link that leads outside the working folder");
  const target = info.isSymbolicLink() ? await lstat(real) : info;
  const shown = path.relative(cwd, absolute) || typed;
  if (target.isDirectory()) return refused("is a folder; mention a file in it (Tab lists them)");
  if (!target.isFile()) return refused("is not a regular file");
  if (isSecretFile(shown) || isSecretFile(path.relative(await realpath(cwd), real)))
    return refused("looks like a file of secrets, which mcpterm never attaches");
  if (target.size > MAX_FILE_BYTES)
    return refused(
      `is ${formatBytes(target.size)}; files over ${formatBytes(MAX_FILE_BYTES)} are not attached`,
    );
  if (isKnownBinary(real)) return refused("is a binary file");
  const decoded = decodeText(await readFile(real));
  if (!decoded.ok) return refused(`is not text (${decoded.reason})`);
  return { kind: "file", path: shown.split(path.sep).join("/"), text: decoded.text, bytes: target.size };
}

/**
 * Files mentioned in a message, attached for the model: each redacted with the full rule set,
 * stripped of terminal controls and hidden characters, all of them together capped at `limit`
 * characters like one tool result, and each fenced as untrusted file content, as resources are.
 * A refused mention stops the message, with why.
 */
export async function attachFiles(
  input: string,
  cwd: string,
  redactor: SecretRedactor,
  limit = DEFAULT_RESULT_CHAR_LIMIT,
): Promise<{ ok: true; attached: AttachedContext } | { ok: false; reason: string }> {
  const attachments: MessageAttachment[] = [];
  const blocks: string[] = [];
  let left = limit;
  const seen = new Set<string>();
  for (const typed of findFileMentions(input)) {
    const read = await readMentionedFile(cwd, typed);
    if (read.kind === "none") continue;
    if (read.kind === "refused")
      return { ok: false, reason: `@${read.path} ${read.reason}; the message was not sent.` };
    if (seen.has(read.path)) continue;
    seen.add(read.path);
    // Only as much as is sent is cleaned (with a margin, see cleanedPart), as resources are: a
    // 1 MB log would otherwise be redacted whole for the 40,000 characters sent.
    const part =
      left > 0
        ? await cleanedPart(read.text, left, "start", (text) => cleanServerText(text, redactor))
        : undefined;
    const capped = part
      ? capText(part.text, left, part.total)
      : {
          text: `[not attached: the message already carries ${limit} characters of files]`,
          truncated: true,
        };
    left = Math.max(0, left - (part?.text.length ?? 0));
    blocks.push(fence(read.path, capped.text));
    const lines = countLines(read.text);
    attachments.push({
      kind: "file",
      server: "",
      name: read.path,
      detail: [
        `${formatBytes(read.bytes)}, ${lines.toLocaleString("en-US")} ${lines === 1 ? "line" : "lines"}`,
        part && part.rules.length > 0 ? `${part.rules.length} secrets redacted` : undefined,
        capped.truncated ? `cut to fit ${limit} characters` : undefined,
      ]
        .filter((part) => part !== undefined)
        .join(", "),
    });
  }
  return { ok: true, attached: { attachments, forModel: blocks.join("\n\n") } };
}

function fence(file: string, body: string): string {
  // Any spelling of the fence's tags inside is defused, so the file cannot close it and go on as the user.
  const text = body.replace(/<(?=\s*\/?\s*file\b)/gi, "&lt;");
  const name = sanitizeForTerminal(file)
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;");
  return `<file path="${name}" trust="untrusted">\n${text}\n</file>`;
}
