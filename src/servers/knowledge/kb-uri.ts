/** Every document is the resource `kb://<path>`; the template adds a line range. */
export const KB_SCHEME = "kb://";
export const LINE_RANGE_TEMPLATE = "kb://{+path}{?startLine,endLine}";

export function documentUri(path: string, range?: { startLine: number; endLine: number }): string {
  const uri = KB_SCHEME + path.split("/").map(encodeURIComponent).join("/");
  return range ? `${uri}?startLine=${range.startLine}&endLine=${range.endLine}` : uri;
}

export type ParsedUri =
  | { ok: true; path: string; startLine: number | undefined; endLine: number | undefined }
  | { ok: false; reason: string };

/** Reads `kb://a/b.md` and `kb://a/b.md?startLine=3&endLine=9`; anything else is refused. */
export function parseDocumentUri(uri: string): ParsedUri {
  if (!uri.startsWith(KB_SCHEME)) {
    return { ok: false, reason: `${JSON.stringify(uri)} is not a kb:// URI of this server.` };
  }
  const [encoded = "", query] = uri.slice(KB_SCHEME.length).split("?", 2);
  let path: string;
  try {
    path = encoded.split("/").map(decodeURIComponent).join("/");
  } catch {
    return { ok: false, reason: `${JSON.stringify(uri)} has a broken %-escape.` };
  }
  const params = new URLSearchParams(query ?? "");
  const bound = (name: string): number | undefined | null => {
    const value = params.get(name);
    if (value === null || value === "") return undefined;
    return /^\d+$/.test(value) && Number(value) >= 1 ? Number(value) : null;
  };
  const startLine = bound("startLine");
  const endLine = bound("endLine");
  if (startLine === null || endLine === null) {
    return {
      ok: false,
      reason: `${JSON.stringify(uri)}: startLine and endLine must be whole numbers from 1.`,
    };
  }
  return { ok: true, path, startLine, endLine };
}
