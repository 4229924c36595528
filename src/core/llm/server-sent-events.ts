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

/** A line longer than this is no stream of chat chunks: the body is read no further. */
const MAX_LINE_CHARS = 16 * 1024 * 1024;

export async function* serverSentEvents(body: AsyncIterable<string>): AsyncGenerator<ServerSentEvent> {
  const decoder = new EventDecoder();
  let rest = "";
  for await (const piece of body) {
    // Only the new text can end the line in progress (or the CR left at the end of the last piece).
    let scanFrom = Math.max(0, rest.length - 1);
    rest += piece;
    let start = 0;
    for (;;) {
      const end = lineEnd(rest, Math.max(start, scanFrom));
      if (end === undefined) break;
      const event = decoder.line(rest.slice(start, end.at));
      if (event) yield event;
      start = scanFrom = end.next;
    }
    rest = rest.slice(start);
    if (rest.length > MAX_LINE_CHARS) throw new SyntaxError("a server-sent event line of more than 16 MB");
  }
  if (rest !== "") {
    const event = decoder.line(rest.endsWith("\r") ? rest.slice(0, -1) : rest);
    if (event) yield event;
  }
  const last = decoder.line("");
  if (last) yield last;
}

/**
 * Where the line in progress ends (searching from `from`) and the next begins, or undefined if it
 * has not ended yet. A CR at the very end may be the first half of a CRLF: it waits for more.
 */
function lineEnd(text: string, from: number): { at: number; next: number } | undefined {
  for (let index = from; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 10) return { at: index, next: index + 1 };
    if (char === 13) {
      if (index + 1 === text.length) return undefined;
      return { at: index, next: text.charCodeAt(index + 1) === 10 ? index + 2 : index + 1 };
    }
  }
  return undefined;
}

class EventDecoder {
  private event: string | undefined;
  private data: string[] = [];

  /** Takes one line (without its ending); returns the event a blank line completes. */
  line(line: string): ServerSentEvent | undefined {
    if (line === "") {
      if (this.event === undefined && this.data.length === 0) return undefined;
      const event = { event: this.event, data: this.data.join("\n") };
      this.event = undefined;
      this.data = [];
      return event;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    return undefined;
  }
}
