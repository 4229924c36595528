/**
 * A 2025-11-25 stdio server written by hand, with no SDK to keep it honest: it answers
 * initialize and tools/list properly (one read-only tool, `echo`) and every tools/call with the
 * line it was given, `"ID"` in it replaced by the call's id (`{"jsonrpc":"2.0","id":"ID",
 * "result":"hello"}`). Everything else is "Method not found", so a 2026 probe falls back to 2025.
 * Given its own tools (JSON), it lists those instead.
 */
const SCRIPT = [
  "const answer = process.argv[1];",
  "const tools = process.argv[2] ? JSON.parse(process.argv[2]) : [{ name: 'echo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }];",
  "const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');",
  "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {",
  "  const m = JSON.parse(line);",
  "  if (m.id === undefined) return;",
  "  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } } });",
  "  if (m.method === 'tools/list') return send({ jsonrpc: '2.0', id: m.id, result: { tools } });",
  "  if (m.method === 'tools/call') return process.stdout.write(answer.replace('\"ID\"', JSON.stringify(m.id)) + '\\n');",
  "  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });",
  "});",
].join("\n");

/** The command line of a server answering every tools/call with `answer` (see above). */
export function rawAnswerCommand(answer: string, tools?: readonly object[]): string[] {
  return [process.execPath, "-e", SCRIPT, answer, ...(tools ? [JSON.stringify(tools)] : [])];
}
