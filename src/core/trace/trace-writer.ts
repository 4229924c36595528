import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";

/**
 * Appends one JSON line per record and writes it through at once, so a crash or a kill loses
 * at most the record in flight, and a reader never sees more than one half-written line.
 */
export class TraceWriter {
  private constructor(
    readonly file: string,
    private fd: number | undefined,
    private readonly redact: (line: string) => string,
  ) {}

  /** `redact` sees each serialized line before it is written, so no secret reaches the disk. */
  static open(file: string, redact: (line: string) => string = (line) => line): TraceWriter {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    return new TraceWriter(file, openSync(file, "a"), redact);
  }

  write(record: object): void {
    if (this.fd === undefined) return;
    writeSync(this.fd, `${this.redact(JSON.stringify({ at: Date.now(), ...record }))}\n`);
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}
