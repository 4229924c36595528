import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

describe("a typo in a server's includeTools", () => {
  it("is a warning in mcpterm tools, and call names the list that leaves the tool out", async () => {
    const dir = await tempDir();
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { a: { ...fixtureLaunch("config-names"), includeTools: ["ecoh"] } },
    });
    const tools = await runCli(trustingConfig(["tools"]), { cwd: dir, env: cleanEnv() });
    expect(tools.code).toBe(0);
    expect(tools.stdout).toContain(
      'warning config-tool-name  The config: includeTools names "ecoh", which the server does not list (did you mean "echo"?).',
    );
    const call = await runCli(trustingConfig(["call", "a/echo", "text=hi"]), { cwd: dir, env: cleanEnv() });
    expect(call.code).toBe(2);
    expect(call.stderr).toBe(
      'mcpterm: Server "a" lists a tool "echo", but its config entry\'s includeTools leaves it out; add it to "includeTools" to use it.\n',
    );
  });
});
