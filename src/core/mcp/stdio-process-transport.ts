import { spawn, type ChildProcessByStdio } from "node:child_process";
import { statSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/client";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/client";
import { answersToMalformed, answerToUnparsable } from "./malformed-answer.js";
import { requestKey } from "./request-key.js";
import { STRAY_GRACE_MS } from "./lost-answers.js";
import { MAX_MESSAGE_SIZE, oversizedMessage } from "./message-limit.js";
import { BoundedLines } from "./bounded-lines.js";
import {
  registerProcessGroup,
  signalProcessGroup,
  unregisterProcessGroup,
  waitForGroupExit,
} from "./process-group.js";

/** How long a process that closed its stdout has to exit before it counts as alive without it. */
const STDOUT_END_GRACE_MS = 200;

export interface StdioProcessOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
  /** How long to wait after closing stdin, and again after SIGTERM, before escalating. */
  gracePeriodMs?: number;
  /** The longest one message may be (MAX_MESSAGE_SIZE); tests lower it. */
  maxMessageChars?: number;
  /** Each complete line the server writes to stderr, as it comes (`mcpterm dev` shows them). */
  onStderrLine?: (line: string) => void;
  /**
   * Each line the server writes to stdout that is not JSON-RPC, as it comes (a warning mid-call);
   * `leftByExit`: the line it left unfinished as it exited (an answer it never finished writing).
   */
  onStdoutNoise?: (line: string, leftByExit: boolean) => void;
}

/**
 * How long `ended` waits after the exit for the pipes to close: the last stderr lines are read by
 * then, and a child that outlives the server (`sh -c 'sleep 30 & exit 3'`) keeps them open.
 */
const PIPE_DRAIN_AFTER_EXIT_MS = 100;

/**
 * How long after the process exits its pipes may stay open with nothing coming through them
 * before the connection counts as ended: a process it started (a helper spawned with inherited
 * stdio) holds them, and a request out would otherwise wait out its whole timeout.
 */
const ORPHANED_PIPES_WAIT_MS = 1000;

/** How long a write that broke the pipe waits to see the process end: its exit says why. */
export const BROKEN_PIPE_EXIT_WAIT_MS = 1000;

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /**
   * Ended after mcpterm began stopping it (closed its stdin, then SIGTERM and SIGKILL): not a
   * death of its own, even where a server exits 1 as its stdin closes.
   */
  stopped?: true;
}

/**
 * The SDK's stdio client transport, rebuilt for a terminal app: the child runs in its own
 * process group (so its whole tree can be stopped), stderr is always piped and kept, and a line
 * on stdout that is not JSON-RPC is recorded as noise instead of tearing the connection down.
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly stderr = new BoundedLines();
  readonly stdoutNoise = new BoundedLines(100);
  /** How the process ended, from the moment it did (a child it left may hold the pipes longer). */
  exit: ProcessExit | undefined;
  spawnError: Error | undefined;
  /**
   * Why nothing more can be sent to a process that shut its stdin and lives on (`docker run`
   * without -i), its write error (EPIPE) the cause: every send after fails with it at once.
   */
  stdinShut: Error | undefined;
  /**
   * Set when the process ended its stdout and lived on (a wrapper that closed it, a program that
   * writes elsewhere): no answer can come, so the connection ends then, not at a timeout.
   */
  stdoutShut = false;

  private child: ChildProcessByStdio<Writable, Readable, Readable> | undefined;
  private stdoutBuffer = "";
  /** Broken answer lines waiting to fail their request, by its key (see holdBroken). */
  private readonly heldBroken = new Map<string, { timer: NodeJS.Timeout; line: string }>();
  /**
   * Why mcpterm itself stopped the process, as the server's fault (a message past the limit):
   * told instead of the exit that followed, which says nothing of it.
   */
  cutOff: string | undefined;
  private closing: Promise<void> | undefined;
  /**
   * Whether mcpterm is stopping the process (an exit from then on is marked ProcessExit.stopped):
   * once it closed a stdin that still worked, or signalled the group.
   */
  private stopping = false;
  /** A write to stdin failed (EPIPE): the process had shut it, so closing it stops nothing. */
  private stdinBroken = false;
  /** Whether the process's pipes have all closed (or count as closed, see pipesEnded); nothing can be sent after. */
  private pipesClosed = false;
  /** Whether stdout brought anything since the process exited: a child it left that still speaks. */
  private stdoutSinceExit = false;

  private readonly maxMessageChars: number;

  constructor(private readonly options: StdioProcessOptions) {
    this.maxMessageChars = options.maxMessageChars ?? MAX_MESSAGE_SIZE;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error("StdioProcessTransport already started");
    const { command, args, env, cwd } = this.options;
    return new Promise((resolve, reject) => {
      let child: ChildProcessByStdio<Writable, Readable, Readable>;
      try {
        child = spawn(command, args, { env, cwd, stdio: ["pipe", "pipe", "pipe"], detached: true });
      } catch (error) {
        // Most failures come as an "error" event; some (a cwd that is a file: ENOTDIR) are thrown.
        this.spawnError = describeSpawnError(error as Error, command, cwd);
        reject(this.spawnError);
        return;
      }
      this.child = child;
      child.once("spawn", () => {
        if (child.pid !== undefined) registerProcessGroup(child.pid);
        resolve();
      });
      child.once("error", (error) => {
        this.spawnError = describeSpawnError(error, command, cwd);
        reject(this.spawnError);
        this.onerror?.(this.spawnError);
      });
      child.once("exit", (code, signal) => {
        this.exit = { code, signal, ...(this.stopping ? { stopped: true as const } : {}) };
        this.stdoutSinceExit = false;
        setTimeout(() => {
          if (!this.stdoutSinceExit) this.pipesEnded();
        }, ORPHANED_PIPES_WAIT_MS).unref();
      });
      child.once("close", () => this.pipesEnded());
      child.stdin.on("error", (error) => {
        this.stdinBroken = true;
        this.onerror?.(error);
      });
      child.stdout.setEncoding("utf8");
      child.stdout.once("end", () => {
        // A process ending as it closes its stdout is an exit, told as one; one that lives on is not.
        setTimeout(() => {
          if (this.exit !== undefined || this.pipesClosed || this.stopping) return;
          this.stdoutShut = true;
          this.pipesEnded();
        }, STDOUT_END_GRACE_MS).unref();
      });
      child.stdout.on("data", (chunk: string) => {
        this.stdoutSinceExit = true;
        this.readStdout(chunk);
      });
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (chunk: string) => {
        const lines = this.stderr.write(chunk);
        for (const line of lines) this.options.onStderrLine?.(line);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (this.stdinShut) return Promise.reject(this.stdinShut);
    if (!stdin || stdin.destroyed || this.pipesClosed) return Promise.reject(new Error("Not connected"));
    return new Promise((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => {
        if (!error) {
          resolve();
          return;
        }
        this.stdinBroken = true;
        // A process that exits (after answering the call before, say) breaks the pipe a moment
        // before its exit is seen. Once its pipes close, the request fails as every request out
        // when a server ends does, with how it ended; "write EPIPE" alone says nothing. A process
        // still running shut its stdin itself: that is the failure.
        void this.ended(BROKEN_PIPE_EXIT_WAIT_MS).then(() => {
          if (this.pipesClosed) {
            resolve();
            return;
          }
          if (this.exit !== undefined) {
            reject(error);
            return;
          }
          this.stdinShut ??= new Error(
            "the server process closed its stdin and runs on, so nothing more can be sent to it",
            { cause: error },
          );
          reject(this.stdinShut);
        });
      });
    });
  }

  /**
   * Resolves once the process has ended and its pipes closed (or PIPE_DRAIN_AFTER_EXIT_MS after
   * its exit, where a child it left holds them), or after `ms` if it has not ended.
   */
  ended(ms: number): Promise<void> {
    const child = this.child;
    if (!child || this.pipesClosed) return Promise.resolve();
    return new Promise((resolve) => {
      let drain: NodeJS.Timeout | undefined;
      const done = (): void => {
        clearTimeout(timer);
        clearTimeout(drain);
        child.off("close", done);
        child.off("exit", drained);
        resolve();
      };
      const drained = (): void => {
        drain = setTimeout(done, PIPE_DRAIN_AFTER_EXIT_MS);
      };
      const timer = setTimeout(done, ms);
      child.once("close", done);
      if (this.exit) drained();
      else child.once("exit", drained);
    });
  }

  /**
   * The connection is over: the pipes closed, or the process exited and they stayed silent for
   * ORPHANED_PIPES_WAIT_MS (a child it left holds them; close() stops that child with the group).
   * Told once.
   */
  private pipesEnded(): void {
    if (this.pipesClosed) return;
    this.pipesClosed = true;
    // What it wrote last without a line break (a message cut off as it exited) is evidence of
    // why it failed: kept as stdout noise, as any other line that is no message.
    const unfinished = this.stdoutBuffer;
    this.stdoutBuffer = "";
    // Not when mcpterm stopped it: a line cut off by that stop is not the server's doing.
    if (this.cutOff === undefined && !this.stopping && unfinished.trim() !== "")
      this.readLine(unfinished.replace(/\r$/, ""), { cutByExit: true });
    // A broken answer still held when the process ended: its request fails with the exit, and the
    // line is kept as evidence of what the server wrote.
    for (const [key, held] of this.heldBroken) {
      clearTimeout(held.timer);
      this.heldBroken.delete(key);
      this.noise(held.line);
    }
    this.onclose?.();
  }

  /** Shuts down as the MCP spec asks: close stdin, wait, SIGTERM, wait, SIGKILL — for the whole group. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    const child = this.child;
    const pid = child?.pid;
    if (!child || pid === undefined) return;
    const grace = this.options.gracePeriodMs ?? 2000;
    // A process already dying of its own (its exit not yet seen) broke its stdin first.
    this.stopping = !this.stdinBroken;
    child.stdin.end();
    // Once the server itself has exited, what is left of its group is no server to ask nicely.
    if (!(await waitForGroupExit(pid, this.exit === undefined ? grace : 0))) {
      this.stopping = true;
      signalProcessGroup(pid, "SIGTERM");
      if (!(await waitForGroupExit(pid, grace))) {
        signalProcessGroup(pid, "SIGKILL");
        await waitForGroupExit(pid, grace);
      }
    }
    unregisterProcessGroup(pid);
  }

  private readStdout(chunk: string): void {
    if (this.cutOff !== undefined) return;
    // Only the new chunk is searched: a long message arriving in many pieces is scanned once.
    let newline = chunk.indexOf("\n");
    if (newline === -1) {
      this.stdoutBuffer += chunk;
      if (this.stdoutBuffer.length > this.maxMessageChars) this.dropOversized();
      return;
    }
    let rest = chunk;
    while (newline !== -1) {
      const line = (this.stdoutBuffer + rest.slice(0, newline)).replace(/\r$/, "");
      this.stdoutBuffer = "";
      rest = rest.slice(newline + 1);
      this.readLine(line);
      newline = rest.indexOf("\n");
    }
    this.stdoutBuffer = rest;
    if (rest.length > this.maxMessageChars) this.dropOversized();
  }

  /**
   * A message past MAX_MESSAGE_SIZE is a server flooding its client, not a result: reading stops,
   * the server is stopped and the connection reported lost, before it can exhaust memory.
   */
  private dropOversized(): void {
    this.stdoutBuffer = "";
    const what = oversizedMessage(this.maxMessageChars);
    this.cutOff = `${what}; mcpterm stopped it`;
    this.onerror?.(new Error(what));
    void this.close();
  }

  /**
   * One line from stdout: a message, a broken answer (failing its request, see holdBroken), or noise.
   * `cutByExit`: the line the process left unfinished as it ended, which is evidence of why, told
   * as noise unless it is a whole message; its request fails with the exit, not as a broken answer.
   */
  private readLine(written: string, { cutByExit = false } = {}): void {
    if (written.trim() === "") return;
    // A byte-order mark before a message (a Windows-minded encoder) is junk on the protocol's
    // stream, told as such, but the message after it is read: failing it would count the probe
    // unanswered and fall back to 2025 after a wait, which explains nothing.
    const line = written.startsWith("\uFEFF") ? written.slice(1) : written;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      // An answer to a request that is not JSON-RPC fails that request at once, as the server's fault.
      const answers = cutByExit ? undefined : answersToMalformed(line);
      if (answers) {
        for (const answer of answers) this.onmessage?.(answer);
        return;
      }
      const broken = cutByExit ? undefined : answerToUnparsable(line);
      if (broken) {
        this.holdBroken(broken.id, broken.answer, written);
        return;
      }
      // Servers that print banners or logs to stdout break the protocol for most clients; we keep
      // going and remember the lines so `mcpterm tools` and `/mcp logs` can point at them.
      this.noise(written, cutByExit);
      return;
    }
    if (line !== written) this.noise(written);
    if ("id" in message && !("method" in message) && message.id !== undefined) this.answered(message.id);
    this.onmessage?.(message);
  }

  /**
   * Fails the request a broken answer line names (answerToUnparsable) STRAY_GRACE_MS from now,
   * unless its own answer comes first: a server that logs a cut copy of an answer to stdout, then
   * sends it, is not failed for the copy, which is then told as what it was, stray stdout.
   */
  private holdBroken(id: string | number, answer: JSONRPCMessage, line: string): void {
    const key = requestKey(id);
    if (this.heldBroken.has(key)) {
      this.noise(line);
      return;
    }
    const timer = setTimeout(() => {
      this.heldBroken.delete(key);
      this.onmessage?.(answer);
    }, STRAY_GRACE_MS);
    timer.unref();
    this.heldBroken.set(key, { timer, line });
  }

  /** A whole answer for `id` came: a broken line held for it was not the answer after all. */
  private answered(id: string | number): void {
    // Every answer passes here: most sessions never hold a broken line.
    if (this.heldBroken.size === 0) return;
    const held = this.heldBroken.get(requestKey(id));
    if (!held) return;
    clearTimeout(held.timer);
    this.heldBroken.delete(requestKey(id));
    this.noise(held.line);
  }

  private noise(line: string, leftByExit = false): void {
    this.stdoutNoise.push(line);
    this.options.onStdoutNoise?.(line, leftByExit);
  }
}

function describeSpawnError(error: Error, command: string, cwd: string | undefined): Error {
  const code = (error as NodeJS.ErrnoException).code;
  // A missing folder fails the spawn with the same ENOENT as a missing command: told apart here,
  // or the person goes looking for the command on their PATH.
  const folder = cwd === undefined ? undefined : folderProblem(cwd);
  if ((code === "ENOENT" || code === "ENOTDIR") && folder !== undefined) {
    return new Error(`its folder ${cwd} ${folder} (its "cwd"); fix the folder, not the command`, {
      cause: error,
    });
  }
  if (code === "ENOENT") {
    return new Error(
      `command "${command}" was not found (ENOENT)${cwd ? ` in ${cwd}` : ""}; check the command and PATH`,
      { cause: error },
    );
  }
  if (code === "EACCES") {
    return new Error(`command "${command}" is not executable (EACCES)`, { cause: error });
  }
  return new Error(`could not start "${command}": ${error.message}`, { cause: error });
}

/** Why `cwd` cannot be a process's folder, or undefined when it can. */
function folderProblem(cwd: string): string | undefined {
  try {
    return statSync(cwd).isDirectory() ? undefined : "is not a folder";
  } catch {
    return "does not exist";
  }
}
