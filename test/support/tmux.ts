import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { CLI } from "./fixtures.js";

/**
 * One tmux server of its own running one command in a pseudo-terminal: what a person sees
 * (`screen`) and types (`keys`, `text`). Waits poll the screen, never sleep a fixed time.
 */
export class TmuxTerminal {
  private readonly socket = `mcpterm-pty-${randomUUID().slice(0, 8)}`;
  private readonly session = "pty";
  private readonly history: string[];

  /** `scrollback`: lines above the pane that `screen` includes too (what a person scrolls up to). */
  constructor(command: string, options: { cwd: string; columns: number; rows: number; scrollback?: number }) {
    this.history = options.scrollback ? ["-S", `-${options.scrollback}`] : [];
    this.tmux(
      "new-session",
      "-d",
      "-s",
      this.session,
      "-x",
      String(options.columns),
      "-y",
      String(options.rows),
      "-c",
      options.cwd,
      command,
    );
  }

  screen(): string {
    return this.tmux("capture-pane", "-p", "-J", "-t", this.session, ...this.history);
  }

  /** The pane's rows as the terminal shows them: a line wider than the window is two rows here. */
  rows(): string {
    return this.tmux("capture-pane", "-p", "-t", this.session);
  }

  /** The window resized as a person drags its corner: the program gets SIGWINCH and the new size. */
  resize(columns: number, rows: number): void {
    this.tmux("resize-window", "-t", this.session, "-x", String(columns), "-y", String(rows));
  }

  /** Named keys, as tmux spells them: "Enter", "Up", "BTab", "C-u", "Escape". */
  keys(...names: string[]): void {
    this.tmux("send-keys", "-t", this.session, ...names);
  }

  /** Characters typed as they are. */
  text(text: string): void {
    this.tmux("send-keys", "-t", this.session, "-l", text);
  }

  /**
   * Pastes `text` as a terminal does: bracketed (when the program asked for it) and with each
   * line ending in CR, as tmux, xterm and iTerm2 send a paste.
   */
  paste(text: string): void {
    this.tmux("set-buffer", "-b", "paste", text);
    this.tmux("paste-buffer", "-p", "-d", "-b", "paste", "-t", this.session);
  }

  /** Polls the screen until `check` passes, failing with the last screen after `ms` (generous: a loaded machine is slow). */
  async waitFor(check: (screen: string) => boolean, what: string, ms = 30_000): Promise<string> {
    const deadline = Date.now() + ms;
    let text = this.screen();
    while (!check(text)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen was:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      text = this.screen();
    }
    return text;
  }

  /** Polls the rows on screen now (no scrollback) until `check` passes; fails with them as waitFor does. */
  async waitForRows(check: (rows: string) => boolean, what: string, ms = 30_000): Promise<string> {
    const deadline = Date.now() + ms;
    let rows = this.rows();
    while (!check(rows)) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; the rows on screen were:\n${rows}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      rows = this.rows();
    }
    return rows;
  }

  /** From now on, every byte the program writes to the pane is appended to `file`. */
  record(file: string): void {
    this.tmux("pipe-pane", "-t", this.session, `cat >> '${file}'`);
  }

  close(): void {
    try {
      this.tmux("kill-server");
    } catch {
      // Already gone.
    }
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }
}

/**
 * The shell line that starts the built mcpterm in a pane as from a person's terminal: a clean
 * environment (`env -i`) with PATH, HOME, a colourless xterm and UTF-8, plus `env`. Every word is
 * single-quoted, so none may hold a single quote. With `keep` (the default) the pane then says
 * how mcpterm exited (`EXITED <code>`) and stays open to be read.
 */
export function mcptermPaneCommand(options: {
  home: string;
  args: readonly string[];
  env?: readonly string[];
  keep?: boolean;
}): string {
  const env = [
    `PATH=${process.env.PATH ?? ""}`,
    `HOME=${options.home}`,
    "NO_COLOR=1",
    "TERM=xterm-256color",
    "LANG=C.UTF-8",
    ...(options.env ?? []),
  ];
  const words = [...env.map((entry) => `'${entry}'`), `'${process.execPath}'`, `'${CLI}'`];
  const start = `env -i ${words.join(" ")} ${options.args.map((arg) => `'${arg}'`).join(" ")}`;
  return options.keep === false ? start : `${start}; echo "EXITED $?"; sleep 60`;
}
