import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";

interface Pending {
  line: string;
  resolve: (output: string[]) => void;
  reject: (error: Error) => void;
}

/** Single quotes for tmux's command parser (the same rule as sh): nothing inside is expanded. */
export function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A private tmux server (its own socket, no user config) driven through one control-mode client:
 * a capture or a key costs a line on a pipe instead of a tmux process, so polling the screen every
 * few milliseconds takes little of the CPU the measured program needs on a loaded 2-core machine.
 */
export class Tmux {
  private readonly pending: Pending[] = [];
  private block: { number: string; lines: string[] } | undefined;
  private exited = false;

  private constructor(
    private readonly client: ChildProcessWithoutNullStreams,
    readonly socket: string,
  ) {
    const lines = createInterface({ input: client.stdout });
    lines.on("line", (line) => this.onLine(line));
    client.on("exit", () => {
      this.exited = true;
      for (const waiting of this.pending.splice(0)) waiting.reject(new Error("the tmux client exited"));
    });
  }

  static async start(): Promise<Tmux> {
    const socket = `mcpterm-bench-${randomUUID().slice(0, 8)}`;
    // A keeper session holds the server up and the control client attached; it prints nothing.
    const client = spawn(
      "tmux",
      ["-L", socket, "-f", "/dev/null", "-C", "new-session", "-s", "keeper", "sleep 2147483647"],
      {
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    const tmux = new Tmux(client, socket);
    await tmux.command("refresh-client -f no-output");
    await tmux.command("set-option -g remain-on-exit off");
    return tmux;
  }

  /** One tmux command line; resolves with what it printed, rejects with tmux's error. */
  command(line: string): Promise<string[]> {
    if (this.exited) return Promise.reject(new Error(`tmux is gone; could not run: ${line}`));
    return new Promise((resolve, reject) => {
      this.pending.push({ line, resolve, reject });
      this.client.stdin.write(`${line}\n`);
    });
  }

  newSession(
    name: string,
    command: string,
    place: { cwd: string; width: number; height: number },
  ): Promise<string[]> {
    return this.command(
      `new-session -d -s ${quote(name)} -x ${place.width} -y ${place.height} -c ${quote(place.cwd)} ${quote(command)}`,
    );
  }

  /** The visible screen, wrapped lines joined (a long path cannot split what is looked for). */
  async capture(session: string): Promise<string> {
    return (await this.command(`capture-pane -p -J -t ${quote(session)}`)).join("\n");
  }

  async sendText(session: string, text: string): Promise<void> {
    await this.command(`send-keys -t ${quote(session)} -l ${quote(text)}`);
  }

  async sendKey(session: string, key: string): Promise<void> {
    await this.command(`send-keys -t ${quote(session)} ${key}`);
  }

  async panePid(session: string): Promise<number> {
    const [pid] = await this.command(`display-message -p -t ${quote(session)} '#{pane_pid}'`);
    return Number(pid);
  }

  /** Copies everything the pane's program writes to its terminal into `shellCommand`'s stdin. */
  async pipeOutput(session: string, shellCommand: string): Promise<void> {
    await this.command(`pipe-pane -O -t ${quote(session)} ${quote(shellCommand)}`);
  }

  async hasSession(session: string): Promise<boolean> {
    const sessions = await this.command("list-sessions -F '#{session_name}'");
    return sessions.includes(session);
  }

  async killSession(session: string): Promise<void> {
    if (await this.hasSession(session)) await this.command(`kill-session -t ${quote(session)}`);
  }

  /** Polls the screen until `check` passes; the time is when the capture that passed came back. */
  async waitFor(
    session: string,
    check: (screen: string) => boolean,
    what: string,
    options: { timeoutMs?: number; pollMs?: number } = {},
  ): Promise<{ screen: string; at: number }> {
    const deadline = performance.now() + (options.timeoutMs ?? 60_000);
    for (;;) {
      const screen = await this.capture(session);
      const at = performance.now();
      if (check(screen)) return { screen, at };
      if (at > deadline) throw new Error(`timed out waiting for ${what}; the screen was:\n${screen}`);
      await sleep(options.pollMs ?? 5);
    }
  }

  /** Waits until the session is gone (its program exited); false after `timeoutMs`. */
  async waitForExit(session: string, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (await this.hasSession(session)) {
      if (performance.now() > deadline) return false;
      await sleep(20);
    }
    return true;
  }

  /** Stops the server and every program still running in it. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exit = new Promise<void>((resolve) => this.client.once("exit", () => resolve()));
    this.client.stdin.write("kill-server\n");
    const timer = setTimeout(() => this.client.kill("SIGKILL"), 5000);
    await exit;
    clearTimeout(timer);
  }

  private onLine(line: string): void {
    const mark = /^%(begin|end|error) \d+ (\d+) (\d+)$/.exec(line);
    if (mark) {
      const [, kind, number = "", flags = "0"] = mark;
      // Flag 1 marks a command this client sent; the keeper's own new-session is answered with 0.
      if (Number(flags) % 2 !== 1) return;
      if (kind === "begin") {
        this.block = { number, lines: [] };
        return;
      }
      if (this.block?.number !== number) return;
      const { lines } = this.block;
      this.block = undefined;
      const waiting = this.pending.shift();
      if (!waiting) return;
      if (kind === "end") waiting.resolve(lines);
      else waiting.reject(new Error(`tmux: ${lines.join(" ")} (command: ${waiting.line})`));
      return;
    }
    if (this.block) this.block.lines.push(line);
  }
}
