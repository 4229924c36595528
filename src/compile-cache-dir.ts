import os from "node:os";
import path from "node:path";

/**
 * Where Node keeps the compiled code of mcpterm's modules between runs: NODE_COMPILE_CACHE when
 * the person set it, else the user's cache folder (XDG_CACHE_HOME/mcpterm/compile-cache, else
 * ~/.cache/mcpterm/compile-cache). Not Node's default under the shared temp folder, where the
 * first user to run mcpterm owns the folder and every other user's code cache would be theirs
 * to write. Node checks each entry against its source and rejects a torn one, so two processes
 * starting at once each just compile; a folder that cannot be made only means no cache.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv): string {
  if (env.NODE_COMPILE_CACHE) return env.NODE_COMPILE_CACHE;
  // The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored (it would put the cache in
  // whatever folder mcpterm was started from).
  const xdg = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : undefined;
  const base = xdg ?? path.join(env.HOME || os.homedir(), ".cache");
  return path.join(base, "mcpterm", "compile-cache");
}
