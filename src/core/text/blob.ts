import { formatBytes } from "./units.js";

/** Only the base64 alphabet, padding and line breaks (MIME wraps base64 at 76 columns). */
const BASE64_ALPHABET = /^[A-Za-z0-9+/=\r\n]+$/;

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

/** Bytes that `base64` (without its whitespace) decodes to. */
export function base64Bytes(base64: string): number {
  const compact = base64.replace(/\s/g, "");
  const padding = compact.endsWith("==") ? 2 : compact.endsWith("=") ? 1 : 0;
  return Math.floor((compact.length * 3) / 4) - padding;
}
