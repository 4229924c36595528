import { lstat, mkdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { isInsideFolder } from "../config/index.js";
import { DEFAULT_MAX_FILE_BYTES, type KnowledgeBase, type RefreshReport } from "../kb/index.js";
import { isKnownBinary } from "../kb/file-kind.js";
import { decodeText } from "../kb/file-read.js";
import { loadIgnoreRules } from "../kb/ignore-rules.js";
import { hasControlOrHidden, revealControls } from "../policy/sanitize-terminal.js";
import { formatBytes } from "../text/index.js";
import { resolveDocumentPath } from "./document-path.js";

/** Why adding or removing failed, as the command line reports it: its exit code follows. */
export type DocumentRefusal = {
  ok: false;
  /** `usage`: the input cannot be used (exit 2); `denied`: not allowed (exit 3); `failed`: it broke (exit 1). */
  kind: "usage" | "denied" | "failed";
  reason: string;
};

export type DocumentChange =
  { ok: true; path: string; bytes: number; replaced: boolean; report: RefreshReport } | DocumentRefusal;

export interface AddOptions {
  /** The name in the knowledge folder; default the source's own name. */
  as?: string | undefined;
  /** Replace a document that has that name already. */
  force?: boolean;
}

/** A fetched page as text, ready to keep: see src/common/page-fetcher.ts. */
export type FetchedPage =
  | { ok: true; finalUrl: string; text: string; extension: string }
  | { ok: false; reason: string; blocked: boolean };

export type PageFetcher = (url: string) => Promise<FetchedPage>;

export function isPageUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** Why `source`, which looks like a URL, cannot be fetched; undefined when it can be. */
export function pageUrlProblem(source: string): string | undefined {
  return URL.canParse(source) && new URL(source).hostname !== ""
    ? undefined
    : `${JSON.stringify(source)} is not a valid URL; pass an absolute http:// or https:// URL.`;
}

const refuse = (reason: string, kind: DocumentRefusal["kind"] = "usage"): DocumentRefusal => ({
  ok: false,
  kind,
  reason,
});

/** Copies the file `source` (relative to `cwd`) into the knowledge folder and indexes it. */
export async function addFile(
  kb: KnowledgeBase,
  source: string,
  cwd: string,
  options: AddOptions = {},
): Promise<DocumentChange> {
  const absolute = path.resolve(cwd, source);
  const info = await stat(absolute).catch(() => undefined);
  if (!info) return refuse(`There is no file ${source}; check the path.`);
  if (info.isDirectory()) return refuse(`${source} is a folder; add its files one at a time.`);
  if (!info.isFile()) return refuse(`${source} is not a regular file.`);
  if (isInsideFolder(absolute, kb.dir) && options.as === undefined) {
    return refuse(
      `${source} is in the knowledge folder already; it is indexed as it is (mcpterm kb index brings the index up to date).`,
    );
  }
  if (isKnownBinary(absolute)) return refuse(binaryReason(source));
  if (info.size > DEFAULT_MAX_FILE_BYTES) return refuse(tooBigReason(source, info.size));
  const bytes = await readFile(absolute);
  const decoded = decodeText(bytes);
  if (!decoded.ok)
    return refuse(
      decoded.reason === "binary file" ? binaryReason(source) : `${source} is not text (${decoded.reason}).`,
    );
  // The bytes as they are (line ends, BOM): a copy, not a rewrite.
  return keep(kb, options.as ?? path.basename(absolute), bytes, options);
}

/** Keeps a fetched page in the knowledge folder (HTML as Markdown) and indexes it. */
export async function addPage(
  kb: KnowledgeBase,
  url: string,
  page: FetchedPage,
  options: AddOptions = {},
): Promise<DocumentChange> {
  if (!page.ok) return refuse(page.reason, page.blocked ? "denied" : "failed");
  const size = Buffer.byteLength(page.text);
  if (size > DEFAULT_MAX_FILE_BYTES) return refuse(tooBigReason(url, size));
  const name = options.as ?? nameForPage(page.finalUrl, page.extension);
  // Where it came from, so a reader (and a model citing it) can go back to the page.
  const text =
    page.extension === ".md"
      ? `${page.text.trimEnd()}\n\n---\nSource: ${sourceAddress(page.finalUrl)} (added ${new Date().toISOString().slice(0, 10)})\n`
      : page.text;
  return keep(kb, name, text, options);
}

/**
 * The page's address as a document may show it: scheme, host and path. Credentials and the query
 * string (where sign-in and share tokens travel) are dropped, and the fragment with them.
 */
export function sourceAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/** Deletes one document from the knowledge folder (a symlink: the link only) and re-indexes. */
export async function removeDocument(kb: KnowledgeBase, given: string, cwd: string): Promise<DocumentChange> {
  // The entry itself: a symlink is removed as a link, wherever it points (even out of the folder).
  const linkItself = { linkItself: true };
  let target = resolveDocumentPath(kb.dir, given, linkItself);
  // `knowledge_base/x.md`, typed from the project folder, names the same document as `x.md`.
  const fromCwd = path.resolve(cwd, given);
  if (target.ok && !(await exists(target.absolute)) && isInsideFolder(path.dirname(fromCwd), kb.dir)) {
    target = resolveDocumentPath(kb.dir, path.relative(kb.dir, fromCwd), linkItself);
  }
  if (!target.ok) return refuse(target.reason);
  const info = await lstat(target.absolute).catch(() => undefined);
  if (!info) return refuse(`There is no document ${target.path} in the knowledge folder ${kb.dir}.`);
  if (info.isDirectory()) return refuse(`${target.path} is a folder; remove its documents one at a time.`);
  await unlink(target.absolute);
  const report = await kb.refresh();
  return { ok: true, path: target.path, bytes: info.size, replaced: false, report };
}

async function keep(
  kb: KnowledgeBase,
  name: string,
  content: string | Buffer,
  options: AddOptions,
): Promise<DocumentChange> {
  if (hasControlOrHidden(name)) {
    return refuse(
      `The name ${JSON.stringify(revealControls(name))} holds control or invisible characters (shown as ⟨U+…⟩), which would hide or reorder it wherever it is listed; give a plain name with --as.`,
    );
  }
  const target = resolveDocumentPath(kb.dir, name);
  if (!target.ok) return refuse(target.reason);
  const blocking = await fileOnTheWay(kb.dir, target.path);
  if (blocking !== undefined) {
    return refuse(
      `${blocking} is a file in the knowledge folder, so it cannot hold ${target.path}; choose another name with --as.`,
    );
  }
  if (isKnownBinary(target.path))
    return refuse(`The name ${target.path} is a binary file type; give a text name with --as.`);
  if ((await loadIgnoreRules(kb.dir)).ignores(target.path)) {
    return refuse(
      `${target.path} would be ignored by the knowledge folder's ignore rules; choose another name with --as.`,
    );
  }
  const existing = await lstat(target.absolute).catch(() => undefined);
  if (existing?.isDirectory())
    return refuse(`${target.path} is a folder in the knowledge folder; choose another name with --as.`);
  if (existing && options.force !== true) {
    return refuse(
      `${target.path} is in the knowledge folder already; pass --force to replace it, or --as <name> to add this under another name.`,
    );
  }
  await mkdir(path.dirname(target.absolute), { recursive: true });
  // Replaced by unlinking first: writing through a symlink would change the file it points to.
  if (existing) await unlink(target.absolute);
  try {
    await writeFile(target.absolute, content, { flag: "wx" });
  } catch (error) {
    return refuse(
      `Could not write ${target.path}: ${error instanceof Error ? error.message : String(error)}.`,
      "failed",
    );
  }
  const report = await kb.refresh();
  const skipped = report.skipped.find((entry) => entry.path === target.path);
  if (skipped) {
    await unlink(target.absolute);
    await kb.refresh();
    return refuse(`${target.path} could not be indexed (${skipped.reason}), so it was not kept.`);
  }
  return {
    ok: true,
    path: target.path,
    bytes: Buffer.byteLength(content),
    replaced: existing !== undefined,
    report,
  };
}

/** "https://wiki.example.com/ops/Deploy%20Guide.html" -> "deploy-guide.md". */
export function nameForPage(url: string, extension: string): string {
  const parsed = new URL(url);
  const segments = parsed.pathname.split("/").filter(Boolean);
  let stem = "";
  try {
    stem = decodeURIComponent(segments.at(-1) ?? "").replace(/\.[A-Za-z0-9]{1,6}$/, "");
  } catch {
    stem = segments.at(-1) ?? "";
  }
  const slug = (stem || parsed.hostname)
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `${slug || "page"}${extension}`;
}

/** The first folder of `relative` (below `root`) that is something other than a folder, if any. */
async function fileOnTheWay(root: string, relative: string): Promise<string | undefined> {
  const parts = relative.split("/").slice(0, -1);
  for (let count = 1; count <= parts.length; count++) {
    const folder = parts.slice(0, count).join("/");
    const info = await stat(path.join(root, folder)).catch(() => undefined);
    if (info === undefined) return undefined;
    if (!info.isDirectory()) return folder;
  }
  return undefined;
}

async function exists(file: string): Promise<boolean> {
  return (await lstat(file).catch(() => undefined)) !== undefined;
}

function binaryReason(source: string): string {
  return `${source} is a binary file; the knowledge base keeps text (Markdown, text, source code).`;
}

function tooBigReason(source: string, size: number): string {
  return `${source} is ${formatBytes(size)}, over the knowledge base's ${formatBytes(DEFAULT_MAX_FILE_BYTES)} limit for one document; split it first.`;
}
