import path from "node:path";
import { isInsideFolder } from "../config/index.js";

export type DocumentPath = { ok: true; path: string; absolute: string } | { ok: false; reason: string };

/**
 * A path a client or a person gave for a document, checked against the knowledge folder: it
 * must be relative, stay inside (no `..`, no symlink out), and name no hidden entry (the scan
 * skips those, and `.git` or `.env` is never a document). `path` comes back with forward slashes,
 * as search results and `kb://` URIs show it. With `linkItself` the last part is taken as the
 * entry itself (a symlink is not followed), and only the folder holding it must be inside.
 */
export function resolveDocumentPath(
  root: string,
  given: string,
  options: { linkItself?: boolean } = {},
): DocumentPath {
  const shown = JSON.stringify(given);
  if (given.trim() === "") return { ok: false, reason: "The document path is empty." };
  if (given.includes("\0")) return { ok: false, reason: `The path ${shown} holds a NUL character.` };
  const slashed = given.replace(/\\/g, "/");
  if (path.posix.isAbsolute(slashed) || /^[A-Za-z]:/.test(slashed)) {
    return {
      ok: false,
      reason: `The path ${shown} is absolute; give a path relative to the knowledge folder, as search results show it.`,
    };
  }
  const parts = slashed.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.includes("..")) {
    return { ok: false, reason: `The path ${shown} leads outside the knowledge folder (it uses "..").` };
  }
  if (parts.length === 0)
    return { ok: false, reason: `The path ${shown} names the knowledge folder itself.` };
  if (parts.some((part) => part.startsWith("."))) {
    return {
      ok: false,
      reason: `The path ${shown} names a hidden file or folder, which is never a document.`,
    };
  }
  const relative = parts.join("/");
  const absolute = path.join(root, ...parts);
  // A symlink's own entry (to remove the link, not what it points to) needs only its folder inside.
  if (!isInsideFolder(options.linkItself === true ? path.dirname(absolute) : absolute, root)) {
    return {
      ok: false,
      reason: `The path ${shown} leads outside the knowledge folder through a symlink; it is not served.`,
    };
  }
  return { ok: true, path: relative, absolute };
}
