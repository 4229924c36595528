/* eslint-disable no-control-regex -- the erase sequences looked for are escape sequences. */
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import type { ReadStream, WriteStream } from "node:tty";
import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/core/text/index.js";
import { drawEarlyFrame, ERASE_FRAME, rowsOnScreen } from "../../src/ui/terminal/early-frame.js";

/**
 * The early frame when the window changes size before Ink takes over: a terminal that rewraps
 * its lines breaks each of the frame's full-width rows in two (or more) when narrowed, so the
 * frame must erase the rows it takes now, not the four it was drawn as, or its top stays on
 * screen above Ink's prompt. Driven through stand-ins for the terminal's streams, which record
 * every byte written.
 */
class Keys extends PassThrough {
  isRaw = false;
  readonly isTTY = true;
  setRawMode(mode: boolean): this {
    this.isRaw = mode;
    return this;
  }
}

class Screen extends EventEmitter {
  columns = 100;
  rows = 30;
  written = "";
  write(chunk: string | Uint8Array): boolean {
    this.written += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  }
  resize(columns: number, rows = this.rows): void {
    this.columns = columns;
    this.rows = rows;
    this.emit("resize");
  }
  take(): string {
    const text = this.written;
    this.written = "";
    return text;
  }
}

const STATUS = "mcpterm · starting";
const UP = "\u001b[1A";

async function frameOn(screen: Screen, keys = new Keys()) {
  const frame = await drawEarlyFrame(
    keys as unknown as ReadStream,
    screen as unknown as WriteStream & { fd: number },
    new Screen() as unknown as NodeJS.WriteStream,
    { status: STATUS, color: false },
  );
  if (!frame) throw new Error("no frame drawn");
  return { frame, keys };
}

/** How many rows an erase at the start of `written` goes up through before it draws again. */
function rowsErased(written: string): number {
  const erase = /^(?:\u001b\[2K(?:\u001b\[1A\u001b\[2K)*\r)/.exec(written)?.[0] ?? "";
  return erase === "" ? 0 : erase.split(UP).length;
}

describe("the early frame when the window is resized", () => {
  it("counts the rows a narrowed window rewraps it into", () => {
    const drawn = { columns: 100, widths: [100, 100, 100, displayWidth(STATUS)] };
    expect(rowsOnScreen(drawn, 100)).toBe(4);
    expect(rowsOnScreen(drawn, 120)).toBe(4);
    expect(rowsOnScreen(drawn, 60)).toBe(2 + 2 + 2 + 1);
    expect(rowsOnScreen(drawn, 30)).toBe(4 + 4 + 4 + 1);
  });

  it("erases the rewrapped frame and draws it again for the new width, keys and all", async () => {
    const screen = new Screen();
    const { frame, keys } = await frameOn(screen);
    screen.take();

    screen.resize(60);
    const narrowed = screen.take();
    expect(rowsErased(narrowed)).toBe(7);
    expect(narrowed).toContain(`╭${"─".repeat(58)}╮`);

    // Keys typed now redraw the frame in place, four rows at the new width.
    keys.write("abc");
    await new Promise((resolve) => setImmediate(resolve));
    const typed = screen.take();
    expect(typed.startsWith(`\r\u001b[3A`)).toBe(true);
    expect(typed).toContain("› abc");

    // Widened, the rows stay one each: four are erased.
    screen.resize(80);
    const widened = screen.take();
    expect(rowsErased(widened)).toBe(4);
    expect(widened).toContain(`╭${"─".repeat(78)}╮`);

    // Taken down for Ink's first frame: the frame as drawn for this width, and nothing else.
    frame.remove();
    expect(screen.take()).toBe(`${ERASE_FRAME}\u001b[?2004l`);
    // The keys go back to stdin for Ink, as typed.
    expect(String(keys.read())).toBe("abc");
  });

  it("takes itself off a window too narrow for it, and does not come back over other rows", async () => {
    const screen = new Screen();
    const { frame, keys } = await frameOn(screen);
    screen.take();
    screen.resize(8);
    const shrunk = screen.take();
    expect(rowsErased(shrunk)).toBe(
      rowsOnScreen({ columns: 100, widths: [100, 100, 100, displayWidth(STATUS)] }, 8),
    );
    expect(shrunk).not.toContain("╭");
    keys.write("x");
    await new Promise((resolve) => setImmediate(resolve));
    expect(screen.take()).toBe("");
    frame.remove();
    expect(screen.take()).toBe("\u001b[?2004l");
    expect(String(keys.read())).toBe("x");
  });

  it("takes itself off a window made too short for it at the same width", async () => {
    const screen = new Screen();
    const { frame } = await frameOn(screen);
    screen.take();
    screen.resize(100, 4);
    const shrunk = screen.take();
    expect(rowsErased(shrunk)).toBe(4);
    expect(shrunk).not.toContain("╭");
    frame.remove();
    expect(screen.take()).toBe("\u001b[?2004l");
  });
});
