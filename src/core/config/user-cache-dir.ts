import os from "node:os";
import path from "node:path";

/**
 * mcpterm's folder in the user's cache folder: XDG_CACHE_HOME/mcpterm, else ~/.cache/mcpterm.
 * What is kept there can be deleted at any time; it only saves work on the next start.
 */
export function userCacheDir(env: NodeJS.ProcessEnv): string {
  // The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored (it would put the cache in
  // whatever folder mcpterm was started from).
  const xdg = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : undefined;
  return path.join(xdg ?? path.join(env.HOME || os.homedir(), ".cache"), "mcpterm");
}
