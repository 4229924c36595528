/**
 * The streaming floor, run as its own process so its CPU is its own: the bare `openai` client
 * reads one streamed answer and prints how long that took and the CPU it used, measured around
 * the request alone (not Node's or this script's start-up).
 *
 *   node --import tsx bench/lib/openai-reader.ts <base url> <message>
 */
import { performance } from "node:perf_hooks";
import OpenAI from "openai";

const [baseURL, message] = process.argv.slice(2);
if (!baseURL || !message) throw new Error("usage: openai-reader.ts <base url> <message>");
const client = new OpenAI({ baseURL, apiKey: "bench" });
const cpu = process.cpuUsage();
const started = performance.now();
const stream = await client.chat.completions.create({
  model: "bench",
  stream: true,
  messages: [{ role: "user", content: message }],
});
let text = "";
let chunks = 0;
for await (const chunk of stream) {
  const delta = chunk.choices[0]?.delta.content;
  if (delta) {
    text += delta;
    chunks += 1;
  }
}
const wallMs = performance.now() - started;
const used = process.cpuUsage(cpu);
process.stdout.write(
  `${JSON.stringify({ wallMs, cpuMs: (used.user + used.system) / 1000, chars: text.length, chunks })}\n`,
);
