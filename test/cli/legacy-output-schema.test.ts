import { describe, expect, it } from "vitest";
import { raw2025ServerScript, rawServerProject, WORK_TOOL } from "../support/raw-2025-server.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/** A 2025-11-25 tool whose outputSchema is not an object schema, which that revision requires. */
const LIST_ITEMS = { name: "list_items", inputSchema: { type: "object" }, outputSchema: { type: "array" } };
const ANSWER_WORK = String.raw`process.stdout.write(line({ id: message.id, result: { content: [{ type: "text", text: "worked" }] } }));`;

describe("a 2025 server one of whose tools has an outputSchema that is not an object schema", () => {
  it("has that tool set aside with why, and the others listed and callable", async () => {
    const dir = await rawServerProject(
      "s",
      raw2025ServerScript({ tools: [WORK_TOOL, LIST_ITEMS], call: ANSWER_WORK }),
    );
    const tools = await runCli(trustingConfig(["tools"]), { cwd: dir, env: cleanEnv() });
    expect(tools.stdout).toMatch(/^s: connected/);
    expect(tools.stdout).toContain("  work  [read_only");
    expect(tools.stdout).toContain(
      '✗ error tool-not-listed  list_items: Not listed: its definition is not valid MCP (outputSchema.type: "array", where 2025-11-25 asks for "object").',
    );
    const call = await runCli(trustingConfig(["call", "s/work"]), { cwd: dir, env: cleanEnv() });
    expect(call.code).toBe(0);
    expect(call.stdout).toBe("worked\n");
  });
});
