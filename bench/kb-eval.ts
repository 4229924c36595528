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
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import {
  EVIDENCE_FLOOR,
  openKnowledgeBase,
  RELEVANCE_FLOOR,
  type KnowledgeBase,
} from "../src/core/kb/index.js";
import { bm25Reference, type ReferenceDoc } from "./kb-bm25-reference.js";

interface Collection {
  name: string;
  docs: ReferenceDoc[];
  queries: Array<{ id: string; text: string }>;
  relevant: Map<string, Set<string>>;
}

interface Scores {
  ndcg: number;
  recall: number;
}

const CUTOFF = 10;
/** Passages fetched per query before they are rolled up into distinct documents. */
const PASSAGES_PER_QUERY = 60;
const COLLECTIONS = ["cranfield", "cisi", "cmrc2018-trial"];

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = process.env.KB_EVAL_DATA ?? path.resolve(repoRoot, "../shared/data");
const queryLimit = Number(process.env.KB_EVAL_QUERIES ?? Infinity);

/** Messages about nothing in any collection: the relevance floor must leave them no passage. */
const NOISE = [
  "hello",
  "thanks, that works!",
  "ok, one more thing",
  "what is the weather like in Paris tomorrow?",
  "call the echo tool with the text hi",
  '{"name":"read_file","arguments":{"path":"/etc/hosts"}}',
  "tell me a joke about cats",
  "can you summarise what we just did?",
  "git status",
  "你好，今天天气怎么样？",
];

async function main(): Promise<void> {
  const rows: string[] = [];
  const collections: Collection[] = [];
  for (const name of COLLECTIONS) {
    const folder = path.join(dataDir, name);
    if (!existsSync(path.join(folder, "corpus.jsonl"))) {
      console.log(`skipping ${name}: no corpus.jsonl under ${folder}`);
      continue;
    }
    collections.push(await loadCollection(name, folder));
  }
  for (const collection of collections) {
    // Another collection's questions are on other subjects: noise for this one.
    const foreign = collections.filter((other) => other !== collection).flatMap((other) => other.queries);
    const ours = await evaluateKnowledgeBase(collection, [...NOISE, ...foreign.map((query) => query.text)]);
    const reference = evaluateRanking(collection, bm25Reference(collection.docs));
    rows.push(
      `| ${collection.name} | ${collection.docs.length} | ${collection.queries.length} | ` +
        `${fmt(ours.unfloored.ndcg)} / ${fmt(ours.unfloored.recall)} | ${fmt(ours.scores.ndcg)} / ${fmt(ours.scores.recall)} | ` +
        `${fmt(reference.ndcg)} / ${fmt(reference.recall)} | ` +
        `${ours.noise.chat} / ${ours.noise.foreign} | ${ours.indexMs} ms |`,
    );
  }
  console.log(
    `\nrelevance floor: coverage ${RELEVANCE_FLOOR}, or evidence ${EVIDENCE_FLOOR} from 2+ words; nDCG@10 / Recall@10`,
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
    await mkdir(docsDir);
    const fileToDoc = new Map<string, string>();
    for (const [index, doc] of collection.docs.entries()) {
      const file = `doc-${index}.md`;
      fileToDoc.set(file, doc.id);
      const body = doc.title.trim() ? `# ${doc.title.trim()}\n\n${doc.text}\n` : `${doc.text}\n`;
      await writeFile(path.join(docsDir, file), body);
    }
    const kb = await openKnowledgeBase({ dir: docsDir, indexDir: path.join(temp, "index") });
    const started = performance.now();
    const report = await kb.refresh();
    const indexMs = Math.round(performance.now() - started);
    if (report.skipped.length > 0) console.log(`${collection.name}: ${report.skipped.length} files skipped`);
    const rank = (minRelevance: number | undefined) => (query: string) =>
      rankDocuments(kb, fileToDoc, query, minRelevance);
    const scores = evaluateRanking(collection, rank(undefined));
    const unfloored = evaluateRanking(collection, rank(0));
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
  const ranked: string[] = [];
  const options =
    minRelevance === undefined ? { k: PASSAGES_PER_QUERY } : { k: PASSAGES_PER_QUERY, minRelevance };
  for (const hit of kb.search(query, options)) {
    const id = fileToDoc.get(hit.path);
    if (id !== undefined && !ranked.includes(id)) ranked.push(id);
  }
  return ranked;
}

function evaluateRanking(collection: Collection, rank: (query: string) => string[]): Scores {
  let ndcg = 0;
  let recall = 0;
  for (const query of collection.queries) {
    const relevant = collection.relevant.get(query.id) ?? new Set<string>();
    const top = rank(query.text).slice(0, CUTOFF);
    let dcg = 0;
    let found = 0;
    top.forEach((id, position) => {
      if (relevant.has(id)) {
        dcg += 1 / Math.log2(position + 2);
        found++;
      }
    });
    let ideal = 0;
    for (let position = 0; position < Math.min(CUTOFF, relevant.size); position++) {
      ideal += 1 / Math.log2(position + 2);
    }
    ndcg += dcg / ideal;
    recall += found / relevant.size;
  }
  return { ndcg: ndcg / collection.queries.length, recall: recall / collection.queries.length };
}

async function loadCollection(name: string, folder: string): Promise<Collection> {
  const docs = (await readJsonLines(path.join(folder, "corpus.jsonl"))).map((row) => ({
    id: String(row._id),
    title: typeof row.title === "string" ? row.title : "",
    text: typeof row.text === "string" ? row.text : "",
  }));
  const relevant = new Map<string, Set<string>>();
  const qrels = await readFile(path.join(folder, "qrels.tsv"), "utf8");
  for (const line of qrels.split("\n").slice(1)) {
    const [queryId, docId, score] = line.trim().split("\t");
    if (queryId === undefined || docId === undefined || !(Number(score) > 0)) continue;
    const set = relevant.get(queryId) ?? new Set<string>();
    set.add(docId);
    relevant.set(queryId, set);
  }
  const queries = (await readJsonLines(path.join(folder, "queries.jsonl")))
    .map((row) => ({ id: String(row._id), text: typeof row.text === "string" ? row.text : "" }))
    .filter((query) => relevant.has(query.id))
    .slice(0, queryLimit);
  return { name, docs, queries, relevant };
}

async function readJsonLines(file: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(file, "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function fmt(value: number): string {
  return value.toFixed(3);
}

await main();
