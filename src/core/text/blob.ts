import { truncateEnd } from "./display-width.js";
import { formatBytes } from "./units.js";

/** Only the base64 alphabet, padding and line breaks (MIME wraps base64 at 76 columns). */
const BASE64_ALPHABET = /^[A-Za-z0-9+/=\r\n]+$/;
/** Whole base64: the alphabet in groups of four, padding only at the end. */
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** `type/subtype` with RFC 6838's name characters, and parameters (`; codecs=opus`) after it. */
const MIME_TYPE =
  /^[A-Za-z0-9][\w!#$&^.+-]*\/[A-Za-z0-9][\w!#$&^.+-]*(?:\s*;\s*[\w!#$&^.+-]+=[\w!#$&^.+-]+)*$/;
/** Columns of an odd MIME type that are shown, quoted. */
const MIME_SHOWN = 40;

/**
 * Whether a long run of the base64 alphabet is encoded data rather than text: real base64 of
 * anything but a handful of bytes mixes cases and digits, while `xxxx…`, a long word or a hex
 * digest uses one or two of those classes.
 */
export function looksLikeBase64(text: string): boolean {
  if (!BASE64_ALPHABET.test(text)) return false;
  const classes = [/[A-Z]/, /[a-z]/, /[0-9+/]/].filter((pattern) => pattern.test(text)).length;
  return classes === 3;
}

/** How a summary names a base64 run in place of it: `‹base64, 45.2 KB›`. */
export function describeBase64(base64: string): string {
  return `‹base64, ${formatBytes(base64Bytes(base64))}›`;
}

/**
 * The one description of binary content (an image, a sound, a file) wherever it is not shown:
 * its MIME type and decoded size, `image/png, 12.3 KB`. A type that is not a plain MIME type
 * is quoted and cut (it comes from a server and lands in one line), and data that is not base64
 * says so rather than giving a size it does not have.
 */
export function describeBlob(mimeType: string | undefined, base64: string): string {
  const type = mimeType === undefined || mimeType === "" ? "no type given" : shownMimeType(mimeType);
  const compact = base64.replace(/\s/g, "");
  const size = STRICT_BASE64.test(compact)
    ? formatBytes(base64Bytes(compact))
    : `${formatBytes(compact.length)} that is not valid base64`;
  return `${type}, ${size}`;
}

/** Bytes that `base64` (without its whitespace) decodes to. */
export function base64Bytes(base64: string): number {
  const compact = base64.replace(/\s/g, "");
  const padding = compact.endsWith("==") ? 2 : compact.endsWith("=") ? 1 : 0;
  return Math.floor((compact.length * 3) / 4) - padding;
}

function shownMimeType(mimeType: string): string {
  if (MIME_TYPE.test(mimeType) && mimeType.length <= MIME_SHOWN) return mimeType;
  return JSON.stringify(truncateEnd(mimeType, MIME_SHOWN));
}
