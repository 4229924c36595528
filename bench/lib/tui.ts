import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { quote, type Tmux } from "./tmux.js";
import { REPO_ROOT } from "./suite.js";

export const CLI = path.join(REPO_ROOT, "dist/cli.js");
export const SCREEN = { width: 120, height: 40 } as const;

/** The prompt is drawn: the input box's marker and a status line naming servers (the early frame says they connect next). */
export const promptDrawn = (screen: string): boolean => screen.includes("›") && screen.includes("servers");
/** No turn is running: the status line shows the idle key hints. */
export const idle = (screen: string): boolean => screen.includes("Enter send ·");

export interface StdioServer {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** A temp project folder with its own HOME and settings, so no run reads or writes the user's. */
export interface Project {
  dir: string;
  env: Record<string, string>;
  remove(): Promise<void>;
}

export async function tempProject(
  modelBaseUrl: string,
  servers: Record<string, StdioServer> = {},
): Promise<Project> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "mcpterm-bench-"));
  await mkdir(path.join(dir, "settings"));
  if (Object.keys(servers).length > 0)
    await writeFile(path.join(dir, "mcp.config.json"), JSON.stringify({ mcpServers: servers }, null, 2));
  return {
    dir,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: dir,
      TERM: "xterm-256color",
      LANG: "C.UTF-8",
      NO_COLOR: "1",
      MCPTERM_MODEL: "bench",
      OPENAI_BASE_URL: modelBaseUrl,
      MCPTERM_SETTINGS_DIR: path.join(dir, "settings"),
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * A shell line that replaces itself with the program under a clean environment, so the pane's
 * pid is the program's own and nothing from the caller's environment leaks in.
 */
export function execLine(env: Record<string, string>, argv: readonly string[]): string {
  const entries = Object.entries(env).map(([key, value]) => quote(`${key}=${value}`));
  return `exec env -i ${entries.join(" ")} ${argv.map(quote).join(" ")}`;
}

/** The interactive assistant with no knowledge base; `--trust-config` when the project has servers. */
export function tuiArgv(trustConfig: boolean): string[] {
  return [process.execPath, CLI, "--no-kb", ...(trustConfig ? ["--trust-config"] : [])];
}

/** One program in its own tmux session, started now. */
export class PaneRun {
  private constructor(
    private readonly tmux: Tmux,
    readonly session: string,
    readonly startedAt: number,
  ) {}

  static async start(tmux: Tmux, session: string, command: string, cwd: string): Promise<PaneRun> {
    const startedAt = performance.now();
    await tmux.newSession(session, command, { cwd, ...SCREEN });
    return new PaneRun(tmux, session, startedAt);
  }

  screen(): Promise<string> {
    return this.tmux.capture(this.session);
  }

  waitFor(
    check: (screen: string) => boolean,
    what: string,
    timeoutMs = 60_000,
  ): Promise<{ screen: string; at: number }> {
    return this.tmux.waitFor(this.session, check, what, { timeoutMs });
  }

  pid(): Promise<number> {
    return this.tmux.panePid(this.session);
  }

  /**
   * Types a line and presses Enter once it shows, as a person would: Enter never comes in the
   * same read as the text (where it could count as pasted). Resolves when Enter was sent.
   */
  async submit(text: string): Promise<number> {
    await this.tmux.sendText(this.session, text);
    await this.waitFor((screen) => screen.includes(`› ${text}`), `"${text}" in the prompt`);
    await this.tmux.sendKey(this.session, "Enter");
    return performance.now();
  }

  sendKey(key: string): Promise<void> {
    return this.tmux.sendKey(this.session, key);
  }

  sendText(text: string): Promise<void> {
    return this.tmux.sendText(this.session, text);
  }

  pipeOutput(file: string): Promise<void> {
    return this.tmux.pipeOutput(this.session, `cat > ${quote(file)}`);
  }

  /**
   * Ctrl+D (twice if a turn still runs), as a person ends mcpterm, once it is seen to take keys (a key sent as the first frame
   * appears can reach the terminal before the TUI has put it into raw mode, where ^D is lost);
   * the session is killed (SIGHUP, a closed terminal) if it has not exited in time.
   */
  async exit(timeoutMs = 15_000): Promise<void> {
    if (!(await this.tmux.hasSession(this.session))) return;
    try {
      await this.sendText("x");
      await this.waitFor((screen) => screen.includes("› x"), "a key to echo before Ctrl+D", timeoutMs);
      await this.sendKey("BSpace");
      await this.waitFor((screen) => !screen.includes("› x"), "Backspace before Ctrl+D", timeoutMs);
      await this.sendKey("C-d");
      // A turn still running asks for a second Ctrl+D (leaving stops it).
      if (await this.tmux.waitForExit(this.session, 1000)) return;
      if ((await this.screen()).includes("Ctrl+D again to exit")) await this.sendKey("C-d");
      if (await this.tmux.waitForExit(this.session, timeoutMs)) return;
      console.error(`${this.session} did not exit within ${timeoutMs} ms of Ctrl+D; killing its session.`);
    } catch (error) {
      console.error(
        `${this.session} could not be ended with Ctrl+D (${String(error)}); killing its session.`,
      );
    }
    await this.kill();
  }

  kill(): Promise<void> {
    return this.tmux.killSession(this.session);
  }
}
