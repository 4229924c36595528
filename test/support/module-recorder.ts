import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * A preload (`--require`, given through NODE_OPTIONS) that writes the list of Node's own modules
 * a process has loaded (process.moduleLoadList) into `dir`: at exit, and every 100 ms for a
 * process a test does not end itself (the TUI). `loaded()` reads the last list written.
 */
export async function moduleRecorder(dir: string): Promise<{ nodeOptions: string; loaded: () => string[] }> {
  const list = path.join(dir, "modules.json");
  const preload = path.join(dir, "record-modules.cjs");
  await writeFile(
    preload,
    `const write = () => require("node:fs").writeFileSync(${JSON.stringify(list)}, JSON.stringify(process.moduleLoadList));\n` +
      "setInterval(write, 100).unref();\nprocess.on('exit', write);\n",
  );
  return {
    nodeOptions: `--require ${preload}`,
    loaded: () => (existsSync(list) ? (JSON.parse(readFileSync(list, "utf8")) as string[]) : []),
  };
}
