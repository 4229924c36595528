/**
 * The generated Markdown corpus of the knowledge-base benchmarks: Zipf-like words from a made-up
 * vocabulary, some Chinese sentences, headings every few paragraphs, about 12 KB a file.
 * Deterministic, so every run indexes the same text.
 */
const FILE_BYTES = 12 * 1024;

/** Deterministic pseudo-random numbers, so every run indexes the same corpus. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
}

const next = random(42);
const syllables = [
  "ka",
  "lo",
  "mi",
  "ser",
  "ver",
  "tor",
  "an",
  "el",
  "dis",
  "pro",
  "ton",
  "ba",
  "ri",
  "ux",
  "qen",
];
/** A Zipf-like vocabulary: a few words are everywhere, most are rare, as in real notes. */
const vocabulary = Array.from({ length: 20000 }, () =>
  Array.from(
    { length: 2 + Math.floor(next() * 3) },
    () => syllables[Math.floor(next() * syllables.length)],
  ).join(""),
);
export const zh = "服务器日志配置工具调用错误请求响应超时连接权限批准风险数据文件索引搜索模型终端";

export function word(): string {
  const index = Math.floor(Math.pow(next(), 3) * vocabulary.length);
  return vocabulary[index] ?? "word";
}

function sentence(): string {
  if (next() < 0.1) {
    return Array.from({ length: 12 }, () => zh[Math.floor(next() * zh.length)]).join("") + "。";
  }
  const words = Array.from({ length: 8 + Math.floor(next() * 12) }, word);
  return `${words.join(" ")}.`;
}

export function markdownFile(index: number): string {
  const parts = [`# Document ${index}: ${word()} ${word()}\n`];
  let size = parts[0]?.length ?? 0;
  let section = 0;
  while (size < FILE_BYTES) {
    const block =
      next() < 0.2
        ? `\n## Section ${++section} ${word()}\n`
        : `\n${Array.from({ length: 2 + Math.floor(next() * 5) }, sentence).join(" ")}\n`;
    parts.push(block);
    size += block.length;
  }
  return parts.join("");
}
