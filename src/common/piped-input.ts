import type { Readable } from "node:stream";
import type { PipedBytes } from "../core/context/piped-text.js";

/** Bytes kept of the start of what is piped in, and of its end: a 2 GB log costs no more memory than this. */
const HEAD_BYTES = 64 * 1024;
const TAIL_BYTES = 256 * 1024;

/**
 * Reads what is piped into stdin as it comes, from the moment it is started (beside the servers'
 * start), keeping its first HEAD_BYTES and its last TAIL_BYTES and counting the rest: the end of
 * a build's log is where its error is, and the start says what it is.
 */
export class PipedInput {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private readonly tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = 0;
  private newlines = 0;
  private done = false;
  private readonly ended: Promise<void>;
  private finish: () => void = () => undefined;

  constructor(private readonly stream: Readable) {
    this.ended = new Promise((resolve) => {
      this.finish = () => {
        this.done = true;
        resolve();
      };
    });
  }

  start(): void {
    this.stream.on("data", this.onData);
    this.stream.once("end", this.finish);
    // A read that fails (EIO from a terminal gone) ends what there is to read.
    this.stream.once("error", this.finish);
    this.stream.resume();
  }

  /** Stops reading (what came so far stays); the stream is left paused. */
  stop(): void {
    this.stream.off("data", this.onData);
    this.stream.off("end", this.finish);
    this.stream.off("error", this.finish);
    this.stream.pause();
  }

  /** Whether the writer has finished: everything it will send is here. */
  isComplete(): boolean {
    return this.done;
  }

  /** Bytes read so far. */
  get received(): number {
    return this.headBytes + this.tailBytes + this.dropped;
  }

  /** Settles once the writer has finished. */
  whenComplete(): Promise<void> {
    return this.ended;
  }

  /** What was read: whole, or its start and end with the middle counted. */
  bytes(): PipedBytes {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    const total = this.received;
    if (this.dropped === 0) return { total, newlines: this.newlines, head: Buffer.concat([head, tail]) };
    return { total, newlines: this.newlines, head, tail: tail.subarray(tail.length - TAIL_BYTES) };
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) this.newlines += 1;
    if (this.headBytes < HEAD_BYTES) {
      const taken = bytes.subarray(0, HEAD_BYTES - this.headBytes);
      this.head.push(taken);
      this.headBytes += taken.length;
      bytes = bytes.subarray(taken.length);
    }
    if (bytes.length === 0) return;
    this.tail.push(bytes);
    this.tailBytes += bytes.length;
    // Whole chunks leave the front while the rest still holds TAIL_BYTES.
    while (this.tail.length > 1 && this.tailBytes - (this.tail[0]?.length ?? 0) >= TAIL_BYTES) {
      const gone = this.tail.shift()?.length ?? 0;
      this.tailBytes -= gone;
      this.dropped += gone;
    }
  };
}
