import { EmbeddingsError } from "../kb/embeddings-client.js";
import { clipText } from "../text/index.js";
import { fuseScores, MIN_SIMILARITY } from "../kb/fusion.js";
import type { SearchableTool } from "./tool-document.js";
import type { RankedTool, ToolIndex } from "./tool-index.js";
import { toolKey } from "./tool-key.js";

/** What tool search needs of an embeddings endpoint: unit vectors, one per text (EmbeddingsClient). */
export interface ToolEmbedder {
  embed(inputs: readonly string[], expectedDimensions?: number): Promise<Float32Array[]>;
}

/** Tools sent in one embeddings request. */
const BATCH = 32;
/** Candidates taken from each ranking before they are fused, as for passages. */
const DEPTH = 50;

/**
 * Embeddings joined to the keyword ranking, as the knowledge base joins them for passages
 * (kb/fusion.ts): each tool's name, title and description embedded once per tool list, the
 * request embedded per ranking, the two rankings fused. The endpoint's first failure is told once
 * through `warn` and turns embeddings off; ranking then stays by keywords.
 */
export class ToolVectors {
  private failed = false;
  private current: { tools: readonly SearchableTool[]; byKey: Map<string, Float32Array> } | undefined;
  private readonly cache = new Map<string, Float32Array>();

  constructor(
    private readonly embedder: ToolEmbedder,
    private readonly warn: (text: string) => void,
  ) {}

  /** The keyword ranking fused with similarity to `text`; the keyword ranking as it is when embeddings are off or fail. */
  async fuse<T extends SearchableTool>(
    index: ToolIndex<T>,
    text: string,
    keyword: ReadonlyArray<RankedTool<T>>,
  ): Promise<Array<RankedTool<T>>> {
    if (this.failed || text.trim() === "") return [...keyword];
    try {
      const byKey = await this.toolVectors(index.tools);
      const dimensions = byKey.values().next().value?.length;
      const [query] = await this.embedder.embed([text], dimensions);
      if (!query) return [...keyword];
      const nearest = index.tools
        .map((tool) => ({ tool, similarity: dot(byKey.get(toolKey(tool)), query) }))
        .filter((entry) => entry.similarity >= MIN_SIMILARITY)
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, DEPTH);
      const ids = new Map(index.tools.map((tool, id) => [toolKey(tool), id]));
      const top = keyword.slice(0, DEPTH);
      const fused = fuseScores(
        top.map((entry) => ({ id: ids.get(toolKey(entry.tool)) ?? -1, score: entry.score })),
        nearest.map((entry) => ({ id: ids.get(toolKey(entry.tool)) ?? -1, score: entry.similarity })),
      );
      const matched = new Map(keyword.map((entry) => [toolKey(entry.tool), entry.matched]));
      const candidates = [
        ...new Set([...top.map((entry) => entry.tool), ...nearest.map((entry) => entry.tool)]),
      ];
      const rest = keyword.slice(DEPTH).map((entry) => ({ ...entry, score: 0 }));
      return [
        ...candidates
          .map((tool) => ({
            tool,
            score: fused.get(ids.get(toolKey(tool)) ?? -1) ?? 0,
            matched: matched.get(toolKey(tool)) ?? [],
          }))
          .sort(
            (a, b) => b.score - a.score || (ids.get(toolKey(a.tool)) ?? 0) - (ids.get(toolKey(b.tool)) ?? 0),
          ),
        ...rest,
      ];
    } catch (error) {
      if (!(error instanceof EmbeddingsError)) throw error;
      this.failed = true;
      this.warn(
        `Embeddings are off for tool search this session: ${error.message}; tools are ranked by keywords only.`,
      );
      return [...keyword];
    }
  }

  private async toolVectors(tools: readonly SearchableTool[]): Promise<Map<string, Float32Array>> {
    if (this.current?.tools === tools) return this.current.byKey;
    // Kept by name and text, so a list that only grew embeds only the new tools.
    const missing = tools.filter((tool) => !this.cache.has(vectorKey(tool)));
    let dimensions = this.cache.values().next().value?.length;
    for (let start = 0; start < missing.length; start += BATCH) {
      const batch = missing.slice(start, start + BATCH);
      const vectors = await this.embedder.embed(batch.map(embeddedText), dimensions);
      batch.forEach((tool, position) => {
        const vector = vectors[position];
        if (vector) this.cache.set(vectorKey(tool), vector);
        dimensions ??= vector?.length;
      });
    }
    const byKey = new Map<string, Float32Array>();
    for (const tool of tools) {
      const vector = this.cache.get(vectorKey(tool));
      if (vector) byKey.set(toolKey(tool), vector);
    }
    this.current = { tools, byKey };
    return byKey;
  }
}

function embeddedText(tool: SearchableTool): string {
  // Cut whole characters only: the text goes to the embeddings endpoint as JSON.
  return clipText([tool.name, tool.title, tool.modelDescription].filter((part) => part).join(". "), 2_000);
}

function vectorKey(tool: SearchableTool): string {
  return `${toolKey(tool)}\u0002${embeddedText(tool)}`;
}

function dot(vector: Float32Array | undefined, query: Float32Array): number {
  if (!vector || vector.length !== query.length) return -1;
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] ?? 0) * (query[i] ?? 0);
  return sum;
}
