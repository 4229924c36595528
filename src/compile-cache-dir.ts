import path from "node:path";
import { userCacheDir } from "./core/config/user-cache-dir.js";

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
  return path.join(userCacheDir(env), "compile-cache");
}
