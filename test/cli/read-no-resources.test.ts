import { describe, expect, it } from "vitest";
import { raw2025ServerScript, rawServerProject } from "../support/raw-2025-server.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/** A 2025 server of tools alone: its capabilities name no resources. */
const TOOLS_ONLY = raw2025ServerScript({});

describe("mcpterm read of a server that offers no resources", () => {
  it("says the server offers none, not that a method was not found", async () => {
    const dir = await rawServerProject("t", TOOLS_ONLY);
    const run = await runCli(trustingConfig(["read", "t", "file:///x"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'mcpterm: Server "t" offers no resources (its capabilities name none), so there is nothing to read at file:///x.\n',
    );
  });
});
