/**
 * `displayWidth` and `truncateEnd` on 100 KB strings, against floors measured in the same run:
 * string-width measuring the whole string at once, and Intl.Segmenter splitting it into
 * grapheme clusters without measuring them (what any cluster-exact measure must pay).
 *
 *   npx tsx bench/text-width.ts
 */
import { performance } from "node:perf_hooks";
import stringWidth from "string-width";
import { displayWidth, truncateEnd } from "../src/core/text/index.js";

const ROUNDS = 20;
const SIZE = 100_000;

const fill = (unit: string): string => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);
const samples = {
  ascii: fill("The quick brown fox jumps over the lazy dog. "),
  mixed: fill("Hello, 世界! 日本語のテキスト 👨‍👩‍👧 🇯🇵 👍🏽 café ｆｕｌｌ "),
  cjk: fill("知识库检索结果按显示宽度对齐"),
};

function median(run: () => unknown): number {
  run();
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;
}

const segmenter = new Intl.Segmenter();
const countClusters = (text: string): number => {
  let count = 0;
  for (const _ of segmenter.segment(text)) count += 1;
  return count;
};
const ms = (value: number): string => `${value.toFixed(1)} ms`;
for (const [name, text] of Object.entries(samples)) {
  const segmentFloor = median(() => countClusters(text));
  const whole = median(() => stringWidth(text));
  const width = median(() => displayWidth(text));
  const cut = median(() => truncateEnd(text, 80));
  console.log(
    `${name.padEnd(5)} ${text.length} chars: displayWidth ${ms(width)} ` +
      `(segmenting alone ${ms(segmentFloor)}, string-width whole ${ms(whole)}), truncateEnd to 80 ${ms(cut)}`,
  );
}
