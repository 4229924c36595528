import { describe, expect, it } from "vitest";
import { raw2025ServerScript, rawServerProject } from "../support/raw-2025-server.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/** A 2025 server that writes a byte-order mark before every message. */
const BOM_SERVER = raw2025ServerScript({
  prefix: "\uFEFF",
  tools: [{ name: "echo", description: "Echo.", inputSchema: { type: "object" } }],
  call: String.raw`process.stdout.write(line({ id: message.id, result: { content: [{ type: "text", text: "hi" }] } }));`,
});

describe("a server that writes a byte-order mark before its messages", () => {
  it("is read, and told: the mark shown where it stands, not hidden in a line that looks valid", async () => {
    const dir = await rawServerProject("bom", BOM_SERVER);
    const run = await runCli(trustingConfig(["tools"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^bom: connected in \d+ ms$/m);
    expect(run.stdout).toContain("echo");
    expect(run.stdout).toMatch(/stdout-noise .*\(first: "⟨U\+FEFF⟩\{\\"jsonrpc\\"/);
  });

  it("is told with the mark written out by mcpterm call's warning too", async () => {
    const dir = await rawServerProject("bom", BOM_SERVER);
    const run = await runCli(trustingConfig(["call", "bom/echo"]), { cwd: dir, env: cleanEnv() });
    expect(run.stdout).toBe("hi\n");
    expect(run.stderr).toContain(
      'warning: server "bom" wrote to stdout, which is for JSON-RPC only (log to stderr): "⟨U+FEFF⟩{\\"jsonrpc\\"',
    );
  });
});
