import { writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDir, writeJson } from "./fixtures.js";

/**
 * The source of a hand-written 2025-11-25 stdio server, for tests of how mcpterm reads a server
 * that misbehaves on the wire: it answers initialize with `capabilities`, tools/list with
 * `tools`, tools/call with `call` (the body of a function of `message` and `line` that writes
 * what it likes), and anything else with "Method not found". `prefix` goes before every line it
 * writes (a byte-order mark, say).
 */
export function raw2025ServerScript(options: {
  capabilities?: Record<string, unknown>;
  tools?: readonly unknown[];
  call?: string;
  prefix?: string;
}): string {
  const { capabilities = { tools: {} }, tools = [], call, prefix = "" } = options;
  return String.raw`
import { createInterface } from "node:readline";
const line = (message) => ${JSON.stringify(prefix)} + JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n";
const onCall = ${call === undefined ? "undefined" : `(message) => { ${call} }`};
createInterface({ input: process.stdin }).on("line", (text) => {
  const message = JSON.parse(text);
  if (message.id === undefined) return;
  if (message.method === "initialize")
    process.stdout.write(line({ id: message.id, result: { protocolVersion: "2025-11-25", capabilities: ${JSON.stringify(capabilities)}, serverInfo: { name: "raw", version: "1" } } }));
  else if (message.method === "tools/list")
    process.stdout.write(line({ id: message.id, result: { tools: ${JSON.stringify(tools)} } }));
  else if (message.method === "tools/call" && onCall) onCall(message);
  else process.stdout.write(line({ id: message.id, error: { code: -32601, message: "Method not found" } }));
});
`;
}

/** A read-only tool named `work`, the one the wire tests call. */
export const WORK_TOOL = {
  name: "work",
  inputSchema: { type: "object" },
  annotations: { readOnlyHint: true },
};

/**
 * A project folder whose config starts `script` (raw2025ServerScript) as the server `name`, with
 * `entry`'s keys added to its config entry (`timeoutMs`, say).
 */
export async function rawServerProject(
  name: string,
  script: string,
  entry: Record<string, unknown> = {},
): Promise<string> {
  const dir = await tempDir();
  const file = path.join(dir, `${name}.mjs`);
  await writeFile(file, script);
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { [name]: { command: process.execPath, args: [file], ...entry } },
  });
  return dir;
}
