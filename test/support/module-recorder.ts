import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * A preload (`--require`, given through NODE_OPTIONS) that writes the list of Node's own modules
 * a process has loaded (process.moduleLoadList) into `dir`: at exit, and every 100 ms for a
 * process a test does not end itself (the TUI), each time whole (renamed into place, so a test
 * reading it as it is written never finds it half written). `loaded()` reads the last list.
 */
export async function moduleRecorder(dir: string): Promise<{ nodeOptions: string; loaded: () => string[] }> {
  const list = path.join(dir, "modules.json");
  const preload = path.join(dir, "record-modules.cjs");
  await writeFile(
    preload,
    // Written aside and renamed over the list: a reader never finds it half written.
    `const fs = require("node:fs");\nconst write = () => { fs.writeFileSync(${JSON.stringify(`${list}.part`)}, JSON.stringify(process.moduleLoadList)); fs.renameSync(${JSON.stringify(`${list}.part`)}, ${JSON.stringify(list)}); };\n` +
      "setInterval(write, 100).unref();\nprocess.on('exit', write);\n",
  );
  return {
    nodeOptions: `--require ${preload}`,
    loaded: () => (existsSync(list) ? (JSON.parse(readFileSync(list, "utf8")) as string[]) : []),
  };
}
