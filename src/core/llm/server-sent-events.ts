/**
 * Server-sent events from a body that arrives as text in pieces of any size: lines end with
 * CRLF, LF or CR, a line may be split across pieces, and an event ends at a blank line (or at the
 * end of the body, for a server that leaves the last blank line out). Comments (`:`) and fields
 * other than `event` and `data` are skipped, as the HTML standard says.
 */
export interface ServerSentEvent {
  /** The `event` field; undefined for a plain message. */
  event: string | undefined;
  /** The `data` lines, joined with "\n". */
  data: string;
}

/** An event (its data lines together) longer than this is no chat chunk: the body is read no further. */
const MAX_EVENT_CHARS = 16 * 1024 * 1024;

export async function* serverSentEvents(body: AsyncIterable<string>): AsyncGenerator<ServerSentEvent> {
  const lines = new LineSplitter();
  const decoder = new EventDecoder();
  let first = true;
  for await (let piece of body) {
    // A byte-order mark may open the stream; it is not part of the first field's name.
    if (first && piece !== "") {
      if (piece.startsWith("\uFEFF")) piece = piece.slice(1);
      first = false;
    }
    for (const line of lines.push(piece)) {
      const event = decoder.line(line);
      if (event) yield event;
    }
    if (lines.pendingChars + decoder.dataChars > MAX_EVENT_CHARS)
      throw new SyntaxError("a server-sent event of more than 16 MB");
  }
  const rest = lines.end();
  if (rest !== undefined) {
    const event = decoder.line(rest);
    if (event) yield event;
  }
  const last = decoder.line("");
  if (last) yield last;
}

/**
 * Cuts text that arrives in pieces into lines, each piece scanned once: the line in progress is
 * kept as its pieces, joined when it ends. A CR ends a line at once; an LF right after it (in the
 * same piece or the next) is the rest of a CRLF and ends nothing.
 */
class LineSplitter {
  private pending: string[] = [];
  pendingChars = 0;
  private afterCr = false;

  push(piece: string): string[] {
    // An empty piece says nothing, and must not forget a CR that may yet be half of a CRLF.
    if (piece === "") return [];
    const lines: string[] = [];
    let start = 0;
    if (this.afterCr && piece.charCodeAt(0) === 10) start = 1;
    this.afterCr = false;
    for (let index = start; index < piece.length; index++) {
      const char = piece.charCodeAt(index);
      if (char !== 10 && char !== 13) continue;
      lines.push(this.take(piece.slice(start, index)));
      if (char === 13) {
        if (index + 1 === piece.length) this.afterCr = true;
        else if (piece.charCodeAt(index + 1) === 10) index++;
      }
      start = index + 1;
    }
    if (start < piece.length) {
      this.pending.push(piece.slice(start));
      this.pendingChars += piece.length - start;
    }
    return lines;
  }

  /** The last line, when the body ended without ending it. */
  end(): string | undefined {
    return this.pending.length === 0 ? undefined : this.take("");
  }

  private take(tail: string): string {
    if (this.pending.length === 0) return tail;
    const line = this.pending.join("") + tail;
    this.pending = [];
    this.pendingChars = 0;
    return line;
  }
}

class EventDecoder {
  private event: string | undefined;
  private data: string[] = [];
  /** The characters of the data lines so far. */
  dataChars = 0;

  /** Takes one line (without its ending); returns the event a blank line completes. */
  line(line: string): ServerSentEvent | undefined {
    if (line === "") {
      if (this.event === undefined && this.data.length === 0) return undefined;
      const event = { event: this.event, data: this.data.join("\n") };
      this.event = undefined;
      this.data = [];
      this.dataChars = 0;
      return event;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") {
      this.data.push(value);
      // The line break that joins it counts too: a flood of empty data lines is as big as any.
      this.dataChars += value.length + 1;
    }
    return undefined;
  }
}
