/**
 * Retrieval quality of the knowledge base on public test collections (BEIR layout), next to a
 * plain BM25 reference. Every document is written as a Markdown file into a temporary folder and
 * indexed through the real openKnowledgeBase() -> refresh() -> search() path.
 *
 *   npx tsx bench/kb-eval.ts              all collections in ../shared/data
 *   KB_EVAL_DATA=/path npx tsx bench/kb-eval.ts
 *   KB_EVAL_QUERIES=300 ...               first N judged queries only (quick runs)
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import {
  EVIDENCE_FLOOR,
  EVIDENCE_MIN_COVERAGE,
  openKnowledgeBase,
  RELEVANCE_FLOOR,
  type KnowledgeBase,
} from "../src/core/kb/index.js";
import { bm25Reference } from "./kb-bm25-reference.js";
import {
  documentsOf,
  evaluateRanking,
  loadCollection,
  NOISE,
  PASSAGES_PER_QUERY,
  writeCollectionFolder,
  type Collection,
  type Scores,
} from "./lib/beir-collection.js";

const COLLECTIONS = ["cranfield", "cisi", "cmrc2018-trial"];

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = process.env.KB_EVAL_DATA ?? path.resolve(repoRoot, "../shared/data");
const queryLimit = Number(process.env.KB_EVAL_QUERIES ?? Infinity);

async function main(): Promise<void> {
  const rows: string[] = [];
  const collections: Collection[] = [];
  for (const name of COLLECTIONS) {
    const folder = path.join(dataDir, name);
    if (!existsSync(path.join(folder, "corpus.jsonl"))) {
      console.log(`skipping ${name}: no corpus.jsonl under ${folder}`);
      continue;
    }
    collections.push(await loadCollection(name, folder, queryLimit));
  }
  for (const collection of collections) {
    // Another collection's questions are on other subjects: noise for this one.
    const foreign = collections.filter((other) => other !== collection).flatMap((other) => other.queries);
    const ours = await evaluateKnowledgeBase(collection, [...NOISE, ...foreign.map((query) => query.text)]);
    const reference = await evaluateRanking(collection, bm25Reference(collection.docs));
    rows.push(
      `| ${collection.name} | ${collection.docs.length} | ${collection.queries.length} | ` +
        `${fmt(ours.unfloored.ndcg)} / ${fmt(ours.unfloored.recall)} | ${fmt(ours.scores.ndcg)} / ${fmt(ours.scores.recall)} | ` +
        `${fmt(reference.ndcg)} / ${fmt(reference.recall)} | ` +
        `${ours.noise.chat} / ${ours.noise.foreign} | ${ours.indexMs} ms |`,
    );
  }
  console.log(
    `\nrelevance floor: coverage ${RELEVANCE_FLOOR}, or evidence ${EVIDENCE_FLOOR} from 2+ words with coverage ${EVIDENCE_MIN_COVERAGE}; nDCG@10 / Recall@10`,
  );
  console.log(
    "| collection | docs | queries | kb, no floor | kb | plain BM25 | noise with passages: chat / other collections' questions | kb index |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const row of rows) console.log(row);
}

interface KbEvaluation {
  scores: Scores;
  unfloored: Scores;
  noise: { chat: string; foreign: string };
  indexMs: number;
}

async function evaluateKnowledgeBase(
  collection: Collection,
  noise: readonly string[],
): Promise<KbEvaluation> {
  const temp = await mkdtemp(path.join(os.tmpdir(), `kb-eval-${collection.name}-`));
  try {
    const docsDir = path.join(temp, "docs");
    const fileToDoc = await writeCollectionFolder(collection, docsDir);
    const kb = await openKnowledgeBase({ dir: docsDir, indexDir: path.join(temp, "index") });
    const started = performance.now();
    const report = await kb.refresh();
    const indexMs = Math.round(performance.now() - started);
    if (report.skipped.length > 0) console.log(`${collection.name}: ${report.skipped.length} files skipped`);
    const rank = (minRelevance: number | undefined) => (query: string) =>
      rankDocuments(kb, fileToDoc, query, minRelevance);
    const scores = await evaluateRanking(collection, rank(undefined));
    const unfloored = await evaluateRanking(collection, rank(0));
    const noisy = (queries: readonly string[]): string =>
      `${queries.filter((query) => kb.search(query).length > 0).length}/${queries.length}`;
    console.log(
      `${collection.name}: ${kb.stats().chunks} chunks from ${kb.stats().files} files, indexed in ${indexMs} ms`,
    );
    return {
      scores,
      unfloored,
      noise: { chat: noisy(noise.slice(0, NOISE.length)), foreign: noisy(noise.slice(NOISE.length)) },
      indexMs,
    };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** Passages rolled up into distinct documents, best first. */
function rankDocuments(
  kb: KnowledgeBase,
  fileToDoc: ReadonlyMap<string, string>,
  query: string,
  minRelevance: number | undefined,
): string[] {
  const options =
    minRelevance === undefined ? { k: PASSAGES_PER_QUERY } : { k: PASSAGES_PER_QUERY, minRelevance };
  return documentsOf(kb.search(query, options), fileToDoc);
}

function fmt(value: number): string {
  return value.toFixed(3);
}

await main();
