/**
 * Knowledge-base timings on a generated Markdown corpus: full index build, persisted index
 * load, incremental refreshes and query latency.
 *
 *   npx tsx bench/kb-perf.ts                 about 20 MB of Markdown
 *   KB_PERF_MB=2 npx tsx bench/kb-perf.ts    a quick run
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import MiniSearch from "minisearch";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openKnowledgeBase } from "../src/core/kb/index.js";
import { markdownFile, word, zh } from "./lib/kb-corpus.js";

const TARGET_BYTES = Number(process.env.KB_PERF_MB ?? 20) * 1024 * 1024;
const QUERIES = 500;

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

function timeQueries(queries: readonly string[], search: (query: string) => unknown): number[] {
  return queries
    .map((query) => {
      const before = performance.now();
      search(query);
      return performance.now() - before;
    })
    .sort((a, b) => a - b);
}

function ratio(value: number, floor: number): string {
  return `${(value / floor).toFixed(1)}×`;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function ms(value: number): string {
  return `${value.toFixed(value < 10 ? 2 : 0)} ms`;
}

async function main(): Promise<void> {
  const temp = await mkdtemp(path.join(os.tmpdir(), "kb-perf-"));
  try {
    const dir = path.join(temp, "kb");
    const indexDir = path.join(temp, "index");
    let bytes = 0;
    let files = 0;
    while (bytes < TARGET_BYTES) {
      const content = markdownFile(files);
      const folder = path.join(dir, `area-${files % 20}`);
      if (files < 20) await mkdir(folder, { recursive: true });
      await writeFile(path.join(folder, `doc-${files}.md`), content);
      bytes += Buffer.byteLength(content);
      files++;
    }
    const rows: Array<[string, string]> = [
      ["corpus", `${(bytes / 1024 / 1024).toFixed(1)} MB in ${files} Markdown files`],
    ];

    // Floor: what any incremental indexer pays at least — read every file and hash it.
    let started = performance.now();
    const texts: string[] = [];
    for (const file of await listFiles(dir)) {
      const text = await readFile(file, "utf8");
      createHash("sha256").update(text).digest("hex");
      texts.push(text);
    }
    const readFloor = performance.now() - started;
    rows.push(["floor: read + hash every file", ms(readFloor)]);

    started = performance.now();
    const kb = await openKnowledgeBase({ dir, indexDir });
    const built = await kb.refresh();
    const buildMs = performance.now() - started;
    rows.push([
      "full index build (scan, chunk, index, save)",
      `${ms(buildMs)} (${ratio(buildMs, readFloor)} floor)`,
    ]);
    const stats = kb.stats();
    rows.push(["chunks / index file", `${stats.chunks} / ${(stats.indexBytes / 1024 / 1024).toFixed(1)} MB`]);
    if (built.skipped.length > 0) rows.push(["skipped", String(built.skipped.length)]);

    started = performance.now();
    const loaded = await openKnowledgeBase({ dir, indexDir });
    rows.push(["persisted index load", ms(performance.now() - started)]);

    started = performance.now();
    await loaded.refresh();
    const unchangedMs = performance.now() - started;
    rows.push([
      "refresh, nothing changed (scan + hash)",
      `${ms(unchangedMs)} (${ratio(unchangedMs, readFloor)} floor)`,
    ]);

    await writeFile(path.join(dir, "area-0", "doc-0.md"), markdownFile(files + 1));
    started = performance.now();
    const edited = await loaded.refresh();
    rows.push([
      `refresh, one file edited (${edited.updated.length} re-indexed, saved)`,
      ms(performance.now() - started),
    ]);

    const queries = Array.from({ length: QUERIES }, (_, i) =>
      i % 5 === 4 ? zh.slice(i % 30, (i % 30) + 4) : Array.from({ length: 2 + (i % 4) }, word).join(" "),
    );
    const latencies = timeQueries(queries, (query) => loaded.search(query));

    // Floor: a plain MiniSearch over the same files (default tokenizer, exact terms, whole files).
    const plain = new MiniSearch<{ id: number; text: string }>({ fields: ["text"] });
    plain.addAll(texts.map((text, id) => ({ id, text })));
    const floorLatencies = timeQueries(queries, (query) => plain.search(query).slice(0, 4));
    const p50 = percentile(latencies, 50);
    const floorP50 = percentile(floorLatencies, 50);
    rows.push([
      "floor: plain MiniSearch query p50 / p99",
      `${ms(floorP50)} / ${ms(percentile(floorLatencies, 99))}`,
    ]);
    rows.push([
      `query latency p50 (${QUERIES} queries, k = 4)`,
      `${ms(p50)} (${ratio(p50, floorP50)} floor)`,
    ]);
    rows.push(["query latency p99", ms(percentile(latencies, 99))]);
    rows.push(["heap used after load", `${(process.memoryUsage().heapUsed / 1024 / 1024).toFixed(0)} MB`]);

    console.log("| measure | value |\n|---|---|");
    for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

await main();
