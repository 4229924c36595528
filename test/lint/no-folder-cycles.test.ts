import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import { noFolderCycles } from "../../eslint/no-folder-cycles.js";
import { tempDir } from "../support/fixtures.js";

/** Lints a small src/ tree written to a temp folder with only the folder-cycle rule on. */
async function lint(files: Record<string, string>): Promise<string[]> {
  const dir = await tempDir();
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ["**/*.ts"],
        languageOptions: { parser: tseslint.parser },
        plugins: { layers: { rules: { "no-folder-cycles": noFolderCycles } } },
        rules: { "layers/no-folder-cycles": "error" },
      },
    ],
  });
  const results = await eslint.lintFiles(["src/**/*.ts"]);
  return results.flatMap((result) =>
    result.messages.map((message) => `${path.relative(dir, result.filePath)}: ${message.message}`),
  );
}

describe("layers/no-folder-cycles", () => {
  it("reports both imports of a cycle between two folders, naming the cycle", async () => {
    const messages = await lint({
      "src/core/agent/loop.ts": 'import { trace } from "../trace/record.js";\nexport const loop = trace;\n',
      "src/core/trace/record.ts":
        'import type { Event } from "../agent/events.js";\nexport const trace = 1;\nexport type T = Event;\n',
      "src/core/agent/events.ts": "export type Event = 1;\n",
    });
    expect(messages).toEqual([
      "src/core/agent/loop.ts: This import closes a cycle between folders: src/core/agent -> src/core/trace -> src/core/agent.",
      "src/core/trace/record.ts: This import closes a cycle between folders: src/core/trace -> src/core/agent -> src/core/trace.",
    ]);
  });

  it("finds a cycle through several folders, dynamic imports and re-exports included", async () => {
    const messages = await lint({
      "src/a/one.ts": 'export { two } from "../b/two.js";\n',
      "src/b/two.ts": 'export const two = async () => import("../c/three.js");\n',
      "src/c/three.ts": 'import "../a/one.js";\n',
    });
    expect(messages).toHaveLength(3);
    expect(messages[0]).toMatch(/src\/a -> src\/b -> src\/c -> src\/a/);
  });

  it("allows one-way layers, and treats each file at the top of src/ as its own node", async () => {
    const messages = await lint({
      "src/cli.ts": 'import { run } from "./run-command.js";\nrun();\n',
      "src/run-command.ts":
        'import { parse } from "./args.js";\nimport { io } from "./common/io.js";\nexport const run = () => [parse, io];\n',
      "src/args.ts": "export const parse = 1;\n",
      "src/common/io.ts":
        'import { parse } from "../args.js";\nimport { core } from "../core/x.js";\nexport const io = [parse, core];\n',
      "src/core/x.ts": "export const core = 1;\n",
    });
    expect(messages).toEqual([]);
  });
});
