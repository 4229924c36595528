import { describe, expect, it } from "vitest";
import { raw2025ServerScript, rawServerProject, WORK_TOOL } from "../support/raw-2025-server.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

describe("a tool whose name is thousands of characters", () => {
  it("is listed by mcpterm tools with its start and its length, not the whole name", async () => {
    const name = `t${"x".repeat(4_999)}`;
    const dir = await rawServerProject(
      "long",
      raw2025ServerScript({ tools: [{ name, inputSchema: { type: "object" } }, WORK_TOOL] }),
    );
    const tools = await runCli(trustingConfig(["tools"]), { cwd: dir, env: cleanEnv() });
    const shown = `t${"x".repeat(63)}… (5000 characters)`;
    expect(tools.stdout).toContain(`\n  ${shown}  [`);
    expect(tools.stdout).toContain(`✗ error invalid-name  ${shown}: The name is 5000 characters long`);
    expect(tools.stdout).toContain("not offered to the model: its name is 5000 characters");
    expect(tools.stdout.split("\n").every((line) => line.length < 400)).toBe(true);
    expect(tools.stdout).toContain("  work  [read_only");
    // So does the sentence naming the tools there are, for a name that is not one of them.
    const call = await runCli(trustingConfig(["call", "long/nope"]), { cwd: dir, env: cleanEnv() });
    expect(call.code).toBe(2);
    expect(call.stderr).toBe(`mcpterm: Server "long" has no tool "nope" (tools: ${shown}, work).\n`);
    // The machine-readable listing keeps the name as the server sent it.
    const json = await runCli(trustingConfig(["tools", "--json"]), { cwd: dir, env: cleanEnv() });
    expect(json.stdout).toContain(name);
  });
});
