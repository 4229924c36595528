import { describeBase64, describeBlob, looksLikeBase64, truncateEnd } from "../../core/text/index.js";

/** A run of the base64 alphabet this long may be data (an image, a file), not something to read. */
const BASE64_RUN = /[A-Za-z0-9+/]{200,}={0,2}/g;
/** The same in a data URL, which names its type: `data:image/png;base64,…`. */
const DATA_URL = /data:([\w.+-]+\/[\w.+-]+);base64,([A-Za-z0-9+/]{200,}={0,2})/g;
/** A line longer than this is shown by its start and its length. */
const LONG_LINE = 1000;
const SHOWN = 200;

/**
 * Pure: text with its blobs summarized, so a base64 image or a minified file does not fill the
 * inspector: a base64 run becomes `‹base64, 45.2 KB›` (in a data URL `‹image/png, 45.2 KB›`), a
 * very long line its start and `‹N more chars›`. Returns how many were summarized, so the view
 * can say how to see them whole.
 */
export function summarizeBlobs(text: string): { text: string; count: number } {
  let count = 0;
  const lines = text.split("\n").map((line) => {
    const shortened = line
      .replace(DATA_URL, (url, type: string, data: string) => {
        if (!looksLikeBase64(data)) return url;
        count += 1;
        return `‹${describeBlob(type, data)}›`;
      })
      .replace(BASE64_RUN, (run) => {
        if (!looksLikeBase64(run)) return run;
        count += 1;
        return describeBase64(run);
      });
    if (shortened.length <= LONG_LINE) return shortened;
    count += 1;
    const start = truncateEnd(shortened, SHOWN);
    return `${start} ‹${shortened.length - start.length + 1} more chars›`;
  });
  return { text: lines.join("\n"), count };
}
