import { describe, expect, it } from "vitest";
import { adHocConfig, launchName } from "../../src/core/config/ad-hoc-server.js";

describe("launchName", () => {
  it.each([
    [{ command: "node", args: ["build/notes.js"] }, "notes"],
    [{ command: "/usr/bin/node", args: ["--enable-source-maps", "./dist/notes-server.mjs"] }, "notes-server"],
    [{ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] }, "server-everything"],
    [{ command: "npx", args: ["-y", "@acme/notes-mcp@1.2.0"] }, "notes-mcp"],
    [{ command: "uv", args: ["run", "server.py"] }, "server"],
    [{ command: "python3", args: ["-m", "notes_server"] }, "notes_server"],
    [{ command: "node", args: ["-e", "process.kill(process.pid)"] }, "node"],
    [{ command: "python3", args: ["-c", "import notes; notes.run()"] }, "python3"],
    [{ command: "npx", args: ["-p", "@acme/notes-mcp", "notes-mcp"] }, "notes-mcp"],
    [{ command: "python3.12", args: ["notes.py"] }, "notes"],
    [{ command: "docker", args: ["run", "-i", "--rm", "mcp/notes:latest"] }, "notes"],
    [{ command: "env", args: ["DEBUG=1", "node", "build/notes.js"] }, "notes"],
    [{ command: "./notes-server", args: ["--stdio"] }, "notes-server"],
    [{ command: "node", args: [] }, "node"],
    [{ url: "http://127.0.0.1:3001/mcp" }, "127.0.0.1:3001"],
    [{ url: "https://mcp.example.com/mcp" }, "mcp.example.com"],
  ])("%j is called %s", (launch, name) => {
    expect(launchName(launch)).toBe(name);
  });
});

describe("adHocConfig", () => {
  it("holds the one typed server, run in the folder it was typed in, with no headers or file", () => {
    const config = adHocConfig({ name: "notes", command: "node", args: ["notes.js"] }, "/work");
    expect(config.path).toBeUndefined();
    expect(config.servers).toEqual([
      expect.objectContaining({
        name: "notes",
        transport: "stdio",
        command: "node",
        args: ["notes.js"],
        cwd: "/work",
        env: {},
        disabled: false,
        trust: false,
      }),
    ]);
    const remote = adHocConfig({ name: "x", url: "https://x.example/mcp" }, "/work");
    expect(remote.servers[0]).toMatchObject({ transport: "http", url: "https://x.example/mcp", headers: {} });
  });
});
