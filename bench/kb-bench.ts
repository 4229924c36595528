/**
 * Knowledge-base speed at scale (issue 15): query latency, reload of the persisted index and the
 * cost of one edited file, on a generated Markdown corpus (bench/lib/kb-corpus.ts) of about 50,000
 * passages (about 2,500 with --quick). Each figure sits beside a floor from the same run:
 * a plain MiniSearch over the same passages (default tokenizer, exact terms), reading every file
 * of the persisted index, reading and hashing the edited file.
 *
 *   npx tsx bench/kb-bench.ts [--quick]
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import MiniSearch from "minisearch";
import { openKnowledgeBase } from "../src/core/kb/index.js";
import { collectGarbage } from "./lib/collect-garbage.js";
import { figureOf } from "./lib/figures.js";
import { markdownFile, word, zh } from "./lib/kb-corpus.js";
import { runSuite } from "./lib/suite.js";

/** Every file of the persisted index (manifest and segments): what a reload must at least read. */
async function readIndexFiles(indexDir: string): Promise<number> {
  let bytes = 0;
  for (const name of await readdir(indexDir)) bytes += (await readFile(path.join(indexDir, name))).length;
  return bytes;
}

await runSuite("kb", { quickSeconds: 50, fullSeconds: 1800 }, async ({ quick, defer }) => {
  const megabytes = quick ? 2 : 40;
  const queries = quick ? 200 : 500;
  const repeats = quick ? 2 : 5;
  const temp = await mkdtemp(path.join(os.tmpdir(), "kb-bench-"));
  defer(() => rm(temp, { recursive: true, force: true }));
  const dir = path.join(temp, "kb");
  const indexDir = path.join(temp, "index");
  let bytes = 0;
  let files = 0;
  while (bytes < megabytes * 1024 * 1024) {
    const content = markdownFile(files);
    const folder = path.join(dir, `area-${files % 20}`);
    if (files < 20) await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, `doc-${files}.md`), content);
    bytes += Buffer.byteLength(content);
    files++;
  }
  const writtenAt = Date.now();

  let started = performance.now();
  const texts: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const text = await readFile(path.join(entry.parentPath, entry.name), "utf8");
    createHash("sha256").update(text).digest("hex");
    texts.push(text);
  }
  const readAll = performance.now() - started;
  started = performance.now();
  const kb = await openKnowledgeBase({ dir, indexDir });
  await kb.refresh();
  const build = performance.now() - started;
  const chunks = kb.stats().chunks;

  const reload: number[] = [];
  const parse: number[] = [];
  for (let i = 0; i < repeats; i++) {
    started = performance.now();
    await readIndexFiles(indexDir);
    parse.push(performance.now() - started);
    started = performance.now();
    await openKnowledgeBase({ dir, indexDir });
    reload.push(performance.now() - started);
  }

  // Each reload above dropped a whole index: collected now, not inside the timed refreshes (a
  // person's session loads one index, and its refreshes never pay for five).
  collectGarbage();
  // Untimed: files written less than 3 s before the build are read again once to remember their
  // stat, as the first refresh of a real session does; the timed edits then see settled files.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, writtenAt + 3100 - Date.now())));
  await kb.refresh();
  const edited = path.join(dir, "area-0", "doc-0.md");
  const update: number[] = [];
  const hashOne: number[] = [];
  for (let i = 0; i < repeats; i++) {
    await writeFile(edited, markdownFile(files + 1 + i));
    started = performance.now();
    createHash("sha256")
      .update(await readFile(edited))
      .digest("hex");
    hashOne.push(performance.now() - started);
    started = performance.now();
    await kb.refresh();
    update.push(performance.now() - started);
  }

  collectGarbage();
  const questions = Array.from({ length: queries }, (_, i) =>
    i % 5 === 4 ? zh.slice(i % 30, (i % 30) + 4) : Array.from({ length: 2 + (i % 4) }, word).join(" "),
  );
  const plain = new MiniSearch<{ id: number; text: string }>({ fields: ["text"] });
  plain.addAll(texts.map((text, id) => ({ id, text })));
  const ours: number[] = [];
  const floor: number[] = [];
  for (const question of questions) {
    started = performance.now();
    plain.search(question).slice(0, 4);
    floor.push(performance.now() - started);
    started = performance.now();
    kb.search(question);
    ours.push(performance.now() - started);
  }

  const corpus = `${(bytes / 1024 / 1024).toFixed(0)} MB, ${files} files, ${chunks} passages`;
  const p99 = (samples: readonly number[]): number => {
    const sorted = [...samples].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? 0;
  };
  return [
    figureOf({
      name: `kb query (${corpus})`,
      unit: "ms",
      samples: ours,
      floor: { label: "plain MiniSearch, same files, exact terms", samples: floor },
      target: { kind: "at-most", value: 5 },
      note: `${queries} queries of 2-5 words (every fifth Chinese), k = 4, one after another`,
    }),
    figureOf({
      name: "kb query p99 (same queries)",
      unit: "ms",
      samples: [p99(ours)],
      floor: { label: "plain MiniSearch p99", samples: [p99(floor)] },
      target: { kind: "none" },
      note: "99th percentile by nearest rank; typo matching (a word that matched nothing as typed) is most of the tail",
    }),
    figureOf({
      name: "kb reload of the persisted index",
      unit: "ms",
      samples: reload,
      floor: { label: "read every file of the index (manifest + segments)", samples: parse },
      target: { kind: "at-most", value: 300 },
    }),
    figureOf({
      name: "kb refresh after one file edited (re-index + save)",
      unit: "ms",
      samples: update,
      floor: { label: "read + hash that one file", samples: hashOne },
      target: { kind: "at-most", value: 100 },
    }),
    figureOf({
      name: "kb full build (scan, chunk, index, save)",
      unit: "ms",
      samples: [build],
      floor: { label: "read + hash every file", samples: [readAll] },
      target: { kind: "none" },
    }),
  ];
});
