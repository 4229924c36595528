import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { KbHit } from "../../src/core/kb/index.js";
import type { ReferenceDoc } from "../kb-bm25-reference.js";

/** A test collection in BEIR's layout: corpus.jsonl, queries.jsonl, qrels.tsv. */
export interface Collection {
  name: string;
  docs: ReferenceDoc[];
  queries: Array<{ id: string; text: string }>;
  relevant: Map<string, Set<string>>;
}

export interface Scores {
  ndcg: number;
  recall: number;
}

export const CUTOFF = 10;
/** Passages fetched per query before they are rolled up into distinct documents. */
export const PASSAGES_PER_QUERY = 60;

/** Messages about nothing in any collection: the relevance floor must leave them no passage. */
export const NOISE = [
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

/** The judged queries only, the first `queryLimit` of them. */
export async function loadCollection(name: string, folder: string, queryLimit: number): Promise<Collection> {
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

/**
 * Writes every document as a Markdown file (`# title` + text) into `docsDir`; returns which
 * document each file holds.
 */
export async function writeCollectionFolder(
  collection: Collection,
  docsDir: string,
): Promise<Map<string, string>> {
  await mkdir(docsDir, { recursive: true });
  const fileToDoc = new Map<string, string>();
  for (const [index, doc] of collection.docs.entries()) {
    const file = `doc-${index}.md`;
    fileToDoc.set(file, doc.id);
    const body = doc.title.trim() ? `# ${doc.title.trim()}\n\n${doc.text}\n` : `${doc.text}\n`;
    await writeFile(path.join(docsDir, file), body);
  }
  return fileToDoc;
}

/** Passages rolled up into distinct documents, best first: a document ranks at its best passage. */
export function documentsOf(hits: readonly KbHit[], fileToDoc: ReadonlyMap<string, string>): string[] {
  const ranked: string[] = [];
  for (const hit of hits) {
    const id = fileToDoc.get(hit.path);
    if (id !== undefined && !ranked.includes(id)) ranked.push(id);
  }
  return ranked;
}

/** Mean nDCG@10 and Recall@10 (binary relevance) over the collection's queries. */
export async function evaluateRanking(
  collection: Collection,
  rank: (query: string) => string[] | Promise<string[]>,
): Promise<Scores> {
  let ndcg = 0;
  let recall = 0;
  for (const query of collection.queries) {
    const relevant = collection.relevant.get(query.id) ?? new Set<string>();
    const top = (await rank(query.text)).slice(0, CUTOFF);
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

async function readJsonLines(file: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(file, "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
