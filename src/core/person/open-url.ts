import { spawn } from "node:child_process";
import { openableUrl } from "../policy/openable-url.js";

/**
 * Opens a web page in the person's browser: `$BROWSER` when set (one program, no arguments of
 * its own), else the platform's opener. Never through a shell, so nothing in the address runs;
 * only http(s) addresses are opened.
 */
export function openUrlWith(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform) {
  return (address: string): Promise<void> => {
    if (!openableUrl(address)) return Promise.reject(new Error("only http(s) addresses are opened"));
    const program = env.BROWSER?.trim() || (platform === "darwin" ? "open" : "xdg-open");
    return new Promise((resolve, reject) => {
      const child = spawn(program, [address], { stdio: "ignore", detached: true, shell: false, env });
      child.once("error", (error) => reject(new Error(`${program} could not be started: ${error.message}`)));
      child.once("spawn", () => {
        child.unref();
        resolve();
      });
    });
  };
}
