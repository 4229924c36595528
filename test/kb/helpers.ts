import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";

const created: string[] = [];

afterEach(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh temp folder with a `kb/` of the given files and an empty `index/` location. */
export async function makeWorkspace(files: Record<string, string | Buffer> = {}): Promise<{
  root: string;
  kbDir: string;
  indexDir: string;
}> {
  const root = await mkdtemp(path.join(os.tmpdir(), "mcpterm-kb-test-"));
  created.push(root);
  const kbDir = path.join(root, "kb");
  await mkdir(kbDir);
  await writeFiles(kbDir, files);
  return { root, kbDir, indexDir: path.join(root, ".mcpterm", "kb") };
}

export async function writeFiles(dir: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/** The lines [startLine, endLine] (1-based, inclusive) of a text, as the chunker numbers them. */
export function linesOf(text: string, startLine: number, endLine: number): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .slice(startLine - 1, endLine)
    .join("\n");
}
