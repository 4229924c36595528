import { createHash } from "node:crypto";
import { readRegularFile } from "../files/regular-file.js";
import { errorCode } from "./file-scan.js";

export type ReadResult = { ok: true; bytes: Buffer; hash: string } | { ok: false; reason: string };
export type DecodeResult = { ok: true; text: string } | { ok: false; reason: string };

/** How far into a file to look for NUL bytes, the mark of a binary file (as git does). */
const SNIFF_BYTES = 8000;

/**
 * A knowledge file's bytes and hash. Read only as a regular file: one swapped for a named pipe
 * after the folder was scanned would otherwise hold the read (and `mcpterm serve`) forever.
 */
export async function readFileBytes(absolutePath: string): Promise<ReadResult> {
  try {
    const bytes = await readRegularFile(absolutePath);
    return { ok: true, bytes, hash: createHash("sha256").update(bytes).digest("hex") };
  } catch (error) {
    return { ok: false, reason: `unreadable (${errorCode(error)})` };
  }
}

/**
 * Decodes a file as text: UTF-8 (with or without a BOM) or UTF-16 with a BOM. Line ends become
 * "\n" so that line numbers match what an editor shows. Binary and invalid UTF-8 are refused.
 */
export function decodeText(bytes: Buffer): DecodeResult {
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    text = new TextDecoder("utf-16le").decode(bytes.subarray(2));
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    text = new TextDecoder("utf-16be").decode(bytes.subarray(2));
  } else {
    if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return { ok: false, reason: "binary file" };
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      return { ok: false, reason: "invalid UTF-8" };
    }
  }
  return { ok: true, text: text.replace(/\r\n?/g, "\n") };
}
