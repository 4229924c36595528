import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { BoundedLines } from "./bounded-lines.js";
import {
  registerProcessGroup,
  signalProcessGroup,
  unregisterProcessGroup,
  waitForGroupExit,
} from "./process-group.js";

export interface StdioProcessOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
  /** How long to wait after closing stdin, and again after SIGTERM, before escalating. */
  gracePeriodMs?: number;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
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
  exit: ProcessExit | undefined;
  spawnError: Error | undefined;

  private child: ChildProcessByStdio<Writable, Readable, Readable> | undefined;
  private stdoutBuffer = "";
  private closing: Promise<void> | undefined;

  constructor(private readonly options: StdioProcessOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error("StdioProcessTransport already started");
    const { command, args, env, cwd } = this.options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, { env, cwd, stdio: ["pipe", "pipe", "pipe"], detached: true });
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
      child.once("close", (code, signal) => {
        this.exit = { code, signal };
        this.onclose?.();
      });
      child.stdin.on("error", (error) => this.onerror?.(error));
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => this.readStdout(chunk));
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (chunk: string) => this.stderr.write(chunk));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || this.exit) return Promise.reject(new Error("Not connected"));
    return new Promise((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
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
    child.stdin.end();
    if (!(await waitForGroupExit(pid, grace))) {
      signalProcessGroup(pid, "SIGTERM");
      if (!(await waitForGroupExit(pid, grace))) {
        signalProcessGroup(pid, "SIGKILL");
        await waitForGroupExit(pid, grace);
      }
    }
    unregisterProcessGroup(pid);
  }

  private readStdout(chunk: string): void {
    this.stdoutBuffer += chunk;
    let newline = this.stdoutBuffer.indexOf("\n");
    while (newline !== -1) {
      const line = this.stdoutBuffer.slice(0, newline).replace(/\r$/, "");
      this.stdoutBuffer = this.stdoutBuffer.slice(newline + 1);
      this.readLine(line);
      newline = this.stdoutBuffer.indexOf("\n");
    }
  }

  private readLine(line: string): void {
    if (line.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      // Servers that print banners or logs to stdout break the protocol for most clients; we keep
      // going and remember the lines so `mcpterm tools` and `/mcp logs` can point at them.
      this.stdoutNoise.push(line);
      return;
    }
    this.onmessage?.(message);
  }
}

function describeSpawnError(error: Error, command: string, cwd: string | undefined): Error {
  const code = (error as NodeJS.ErrnoException).code;
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
