/**
 * A local OpenAI-compatible /v1/embeddings endpoint serving the Universal Sentence Encoder
 * (bench/lib/sentence-encoder.ts says how to install it, in one command), for trying
 * kb.embeddings without any model service:
 *
 *   npx tsx bench/embeddings-server.ts [port]        default 8089
 *   then kb.embeddings: { "model": "universal-sentence-encoder-lite", "baseUrl": "http://127.0.0.1:8089/v1" }
 *
 * Vectors are cached in ~/.cache/mcpterm-embed/vectors/ (MCPTERM_EMBED_DIR moves it).
 */
import path from "node:path";
import { startEmbeddingsEndpoint } from "./lib/embeddings-endpoint.js";
import { encoderDir, loadSentenceEncoder, SENTENCE_ENCODER_MODEL } from "./lib/sentence-encoder.js";

const port = Number(process.argv[2] ?? 8089);
const loaded = await loadSentenceEncoder();
if (!loaded.ok) {
  console.error(`embeddings-server: ${loaded.reason}`);
  process.exit(2);
}
const endpoint = await startEmbeddingsEndpoint(
  loaded.encoder,
  path.join(encoderDir(), "vectors", `${SENTENCE_ENCODER_MODEL}.tsv`),
  port,
);
console.error(`embeddings-server: ${SENTENCE_ENCODER_MODEL} at ${endpoint.baseUrl} (Ctrl-C stops it)`);
