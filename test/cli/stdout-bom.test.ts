import { describe, expect, it } from "vitest";
import { raw2025ServerScript, rawServerProject } from "../support/raw-2025-server.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/** A 2025 server that writes a byte-order mark before every message. */
const BOM_SERVER = raw2025ServerScript({
  prefix: "\uFEFF",
  tools: [{ name: "echo", description: "Echo.", inputSchema: { type: "object" } }],
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
});
