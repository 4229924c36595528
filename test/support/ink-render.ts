import { EventEmitter } from "node:events";
import { render as inkRender, type Instance } from "ink";
import type { ReactNode } from "react";

/**
 * ink-testing-library's render, with a window whose size a test sets and changes: its stdout is
 * always 100 columns wide. Frames are written whole (Ink's debug mode), so the last write is the
 * screen's content.
 */
class TestStdout extends EventEmitter {
  readonly frames: string[] = [];
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  readonly write = (frame: string): boolean => {
    this.frames.push(frame);
    return true;
  };
  lastFrame = (): string | undefined => this.frames.at(-1);
  resize(columns: number, rows = this.rows): void {
    this.columns = columns;
    this.rows = rows;
    this.emit("resize");
  }
}

class TestStdin extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;
  readonly write = (data: string): void => {
    this.data = data;
    this.emit("readable");
    this.emit("data", data);
  };
  readonly read = (): string | null => {
    const { data } = this;
    this.data = null;
    return data;
  };
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

export interface Rendered {
  stdin: TestStdin;
  stdout: TestStdout;
  /** Every write, oldest first. */
  frames: string[];
  lastFrame: () => string | undefined;
  unmount: Instance["unmount"];
  /** Changes the window's size, as a terminal does when it is resized. */
  resize: (columns: number, rows?: number) => void;
}

export function render(tree: ReactNode, size: { columns?: number; rows?: number } = {}): Rendered {
  const stdout = new TestStdout(size.columns ?? 100, size.rows ?? 40);
  const stdin = new TestStdin();
  const instance = inkRender(tree, {
    // The fakes carry only what Ink uses of a terminal's streams.
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new TestStdout(100, 40) as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return {
    stdin,
    stdout,
    frames: stdout.frames,
    lastFrame: stdout.lastFrame,
    unmount: instance.unmount,
    resize: (columns, rows) => stdout.resize(columns, rows),
  };
}
