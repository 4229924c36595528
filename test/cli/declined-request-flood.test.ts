import { describe, expect, it } from "vitest";
import { raw2025ServerScript, rawServerProject, WORK_TOOL } from "../support/raw-2025-server.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/** A 2025 server that asks for the model 50 times while it works on a call, then answers it. */
const ASKS = 50;
const FLOOD = raw2025ServerScript({
  capabilities: { tools: {} },
  tools: [WORK_TOOL],
  call: String.raw`
    for (let n = 0; n < ${ASKS}; n += 1)
      process.stdout.write(line({ id: "ask-" + n, method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 } }));
    setTimeout(() => process.stdout.write(line({ id: message.id, result: { content: [{ type: "text", text: "done" }] } })), 300);
  `,
});

describe("a server that sends many requests mcpterm call declines", () => {
  it("has the first few told and then one line saying more are declined, not one line each", async () => {
    const dir = await rawServerProject("asker", FLOOD);
    const run = await runCli(trustingConfig(["call", "asker/work"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("done\n");
    const told = run.stderr.split("\n").filter((line) => line.includes("Declined a sampling request"));
    expect(told).toHaveLength(6);
    expect(told[0]).toBe(
      'warning: Declined a sampling request from server "asker": nobody is there to answer it.',
    );
    expect(told[5]).toMatch(/More like it are declined without a word\.$/);
  });
});
