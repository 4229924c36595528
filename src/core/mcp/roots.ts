import { statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Root } from "../deprecated-mcp.js";
import type { ServerConfig } from "../config/config-types.js";

/**
 * The folders mcpterm offers servers as MCP roots: the working folder, plus any added with
 * `--root` or `/roots add`. Servers are told (`notifications/roots/list_changed`) when it changes.
 */
export class RootList {
  private readonly folders: string[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(folders: readonly string[]) {
    for (const folder of folders) this.insert(path.resolve(folder));
  }

  /** The roots as MCP sends them: `file://` URIs named by their folder. */
  list(): Root[] {
    return this.folders.map((folder) => ({
      uri: pathToFileURL(folder).href,
      name: path.basename(folder) || folder,
    }));
  }

  paths(): string[] {
    return [...this.folders];
  }

  /**
   * Adds a folder (relative to `cwd`); returns why not when it is no folder. Adding one that is
   * already there changes nothing and tells no server.
   */
  add(
    folder: string,
    cwd: string,
  ): { ok: true; path: string; added: boolean } | { ok: false; reason: string } {
    const resolved = path.resolve(cwd, folder);
    let isFolder = false;
    try {
      isFolder = statSync(resolved).isDirectory();
    } catch {
      return { ok: false, reason: `${resolved} does not exist` };
    }
    if (!isFolder) return { ok: false, reason: `${resolved} is not a folder` };
    const added = this.insert(resolved);
    if (added) this.notify();
    return { ok: true, path: resolved, added };
  }

  /** Removes a folder given as listed or relative to `cwd`; false when it was not a root. */
  remove(folder: string, cwd: string): boolean {
    const resolved = path.resolve(cwd, folder);
    const index = this.folders.indexOf(resolved);
    if (index < 0) return false;
    this.folders.splice(index, 1);
    this.notify();
    return true;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private insert(folder: string): boolean {
    if (this.folders.includes(folder)) return false;
    this.folders.push(folder);
    return true;
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * Whether `server` is offered roots, and if not, why. Servers such as server-filesystem replace
 * the folders on their command line with the client's roots: offering the working folder to one
 * started on `./workspace` would widen what it may read to the whole project, `.env` included.
 * So a stdio server given a folder on its command line keeps it, unless its entry says
 * `"roots": true`; `"roots": false` offers none to any server.
 */
export function rootsOffer(server: ServerConfig): { offered: true } | { offered: false; reason: string } {
  if (server.roots === true) return { offered: true };
  if (server.roots === false) return { offered: false, reason: 'its config says "roots": false' };
  if (server.transport !== "stdio") return { offered: true };
  const base = server.cwd ?? process.cwd();
  // An empty argument names no folder, though it resolves to the one the server starts in.
  const folder = server.args.find(
    (arg) => arg !== "" && !arg.startsWith("-") && isFolder(path.resolve(base, arg)),
  );
  if (folder === undefined) return { offered: true };
  return {
    offered: false,
    reason: `it was started with the folder ${folder} on its command line, which roots would replace; set "roots": true in its entry to offer them`,
  };
}

function isFolder(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}
