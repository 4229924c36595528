import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emptyConfig, type ServerConfig } from "../../src/core/config/config-types.js";
import { DEFAULT_TOOL_SEARCH } from "../../src/core/config/tool-search-settings.js";
import { toolSearchSettingsOf } from "../../src/core/tool-search/index.js";
import { loadConfig } from "../../src/core/config/load-config.js";
import { ConfigError } from "../../src/core/errors.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "mcpterm-config-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, content: unknown): Promise<string> {
  const file = path.join(dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
}

async function load(document: unknown, env: NodeJS.ProcessEnv = {}) {
  await write("mcp.config.json", document);
  return loadConfig({ explicit: false, cwd: dir, env });
}

function server(partial: Partial<ServerConfig> & Pick<ServerConfig, "name" | "transport">): ServerConfig {
  return {
    args: [],
    env: {},
    headers: {},
    timeoutMs: 60_000,
    maxCallMs: 600_000,
    startupTimeoutMs: 30_000,
    disabled: false,
    trust: false,
    includeTools: [],
    excludeTools: [],
    tiers: {},
    // What serverLaunchHash reads; its own tests check what goes into it.
    launchAsWritten: expect.any(String) as string,
    ...partial,
  };
}

describe("loadConfig: files written for other MCP clients load unchanged", () => {
  it("Claude Desktop (claude_desktop_config.json)", async () => {
    const config = await load({
      mcpServers: {
        filesystem: {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/ada/Desktop"],
        },
        github: {
          command: "docker",
          args: ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"],
          env: { GITHUB_TOKEN: "x" },
        },
      },
      globalShortcut: "Ctrl+Space",
    });
    expect(config.path).toBe(path.join(dir, "mcp.config.json"));
    expect(config.servers).toEqual([
      server({
        name: "filesystem",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/ada/Desktop"],
        cwd: dir,
      }),
      server({
        name: "github",
        transport: "stdio",
        command: "docker",
        args: ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"],
        env: { GITHUB_TOKEN: "x" },
        cwd: dir,
      }),
    ]);
    expect(config.approval.auto).toEqual(["read_only", "low_risk"]);
    expect(config.warnings).toEqual([]);
  });

  it("Cursor (.cursor/mcp.json) with a remote server given by url", async () => {
    const config = await load({
      mcpServers: {
        linear: { url: "https://mcp.linear.app/mcp", headers: { Authorization: "Bearer k" } },
        local: { command: "node", args: ["server.js"], env: { API_KEY: "v" } },
      },
    });
    expect(config.servers).toEqual([
      server({
        name: "linear",
        transport: "http",
        url: "https://mcp.linear.app/mcp",
        headers: { Authorization: "Bearer k" },
      }),
      server({
        name: "local",
        transport: "stdio",
        command: "node",
        args: ["server.js"],
        env: { API_KEY: "v" },
        cwd: dir,
      }),
    ]);
    expect(config.warnings).toEqual([]);
  });

  it("Claude Code (.mcp.json) with explicit types", async () => {
    await write(".mcp.json", {
      mcpServers: {
        stdio: { type: "stdio", command: "uvx", args: ["mcp-server-git"], env: {} },
        http: { type: "http", url: "https://api.example.com/mcp", headers: { "X-Key": "k" } },
        sse: { type: "sse", url: "https://sse.example.com/sse" },
      },
    });
    const config = await loadConfig({ path: ".mcp.json", explicit: true, cwd: dir, env: {} });
    expect(
      config.servers.map(({ name, transport, url, command }) => ({ name, transport, url, command })),
    ).toEqual([
      { name: "stdio", transport: "stdio", url: undefined, command: "uvx" },
      { name: "http", transport: "http", url: "https://api.example.com/mcp", command: undefined },
      { name: "sse", transport: "sse", url: "https://sse.example.com/sse", command: undefined },
    ]);
    expect(config.warnings).toEqual([]);
  });

  it("gemini-cli settings.json mcpServers block, with its own keys", async () => {
    const config = await load({
      theme: "GitHub",
      mcpServers: {
        python: {
          command: "python",
          args: ["-m", "my_mcp_server"],
          cwd: "./mcp-servers/python",
          env: { DATABASE_URL: "$DB_URL_ignored_without_braces" },
          timeout: 15000,
          trust: true,
          includeTools: ["safe_tool"],
          excludeTools: ["dangerous_tool"],
          description: "gemini-only key",
        },
        streaming: {
          httpUrl: "http://localhost:8080/mcp",
          headers: { Authorization: "Bearer t" },
          timeout: 5000,
        },
      },
    });
    expect(config.servers).toEqual([
      server({
        name: "python",
        transport: "stdio",
        command: "python",
        args: ["-m", "my_mcp_server"],
        cwd: path.join(dir, "mcp-servers", "python"),
        env: { DATABASE_URL: "$DB_URL_ignored_without_braces" },
        timeoutMs: 15000,
        trust: true,
        includeTools: ["safe_tool"],
        excludeTools: ["dangerous_tool"],
      }),
      server({
        name: "streaming",
        transport: "http",
        url: "http://localhost:8080/mcp",
        headers: { Authorization: "Bearer t" },
        timeoutMs: 5000,
      }),
    ]);
    expect(config.warnings).toEqual([]);
  });

  it("gemini-cli settings.json in both its layouts, Cline and VS Code server keys, without a warning", async () => {
    const config = await load({
      $schema: "https://raw.githubusercontent.com/google-gemini/gemini-cli/main/schemas/settings.schema.json",
      general: { vimMode: true },
      ui: { theme: "GitHub" },
      tools: { sandbox: false, core: ["ls"], exclude: [], useRipgrep: true },
      mcp: { allowed: ["git"] },
      security: { auth: { selectedType: "gemini-api-key" } },
      selectedAuthType: "gemini-api-key",
      contextFileName: "GEMINI.md",
      preferredEditor: "vscode",
      model: { name: "gemini-2.5-pro", maxSessionTurns: 20 },
      mcpServers: {
        git: { command: "uvx", args: ["mcp-server-git"], description: "git", oauth: { enabled: false } },
        cline: { command: "node", args: ["s.js"], autoApprove: [], alwaysAllow: [], transportType: "stdio" },
        vscode: { type: "stdio", command: "node", envFile: "${workspaceFolder}/.env", dev: {} },
      },
    });
    expect(config.warnings).toEqual([]);
  });
});

describe("loadConfig: mcpterm's own keys", () => {
  it("reads the full example of every key mcpterm adds", async () => {
    const config = await load(
      {
        mcpServers: {
          filesystem: {
            command: "node",
            args: ["./node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", "."],
            env: { LOG_LEVEL: "${LOG_LEVEL:-info}" },
            timeoutMs: 30000,
            startupTimeoutMs: 10000,
            disabled: false,
            trust: false,
            includeTools: [],
            excludeTools: [],
            tiers: { write_file: "dangerous", read_text_file: "read_only" },
          },
          remote: {
            url: "http://127.0.0.1:3001/mcp",
            headers: { Authorization: "Bearer ${TOKEN}" },
            disabled: true,
          },
        },
        approval: { auto: ["read_only"] },
        kb: { dir: "knowledge_base", topK: 6, enabled: false },
        model: { name: "qwen3:8b", baseUrl: "http://localhost:11434/v1" },
      },
      { TOKEN: "t0k" },
    );
    expect(config).toEqual({
      path: path.join(dir, "mcp.config.json"),
      servers: [
        server({
          name: "filesystem",
          transport: "stdio",
          command: "node",
          args: ["./node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", "."],
          env: { LOG_LEVEL: "info" },
          cwd: dir,
          timeoutMs: 30000,
          startupTimeoutMs: 10000,
          tiers: { write_file: "dangerous", read_text_file: "read_only" },
        }),
        server({
          name: "remote",
          transport: "http",
          url: "http://127.0.0.1:3001/mcp",
          headers: { Authorization: "Bearer t0k" },
          fromEnvironment: [{ variable: "TOKEN", key: "headers.Authorization" }],
          disabled: true,
        }),
      ],
      approval: { auto: ["read_only"], fromFile: true },
      kb: { enabled: false, dir: path.join(dir, "knowledge_base"), topK: 6 },
      model: { name: "qwen3:8b", baseUrl: "http://localhost:11434/v1" },
      answers: { confirmedInferred: true },
      tools: { search: DEFAULT_TOOL_SEARCH },
      warnings: [],
    });
  });

  it("reads tools.search and each server's alwaysLoad", async () => {
    const config = await load({
      mcpServers: {
        github: { command: "x", alwaysLoad: ["get_issue", "list_issues"] },
        notes: { command: "x", alwaysLoad: true },
        other: { command: "x", alwaysLoad: false },
      },
      tools: {
        search: { mode: "always", windowShare: 0.1, maxTools: 30, limit: 6, alwaysLoad: ["files/read"] },
      },
    });
    expect(config.tools.search).toEqual({
      mode: "always",
      windowShare: 0.1,
      maxTools: 30,
      limit: 6,
      alwaysLoad: ["files/read"],
    });
    expect(config.servers.map((entry) => entry.alwaysLoad)).toEqual([
      ["get_issue", "list_issues"],
      true,
      undefined,
    ]);
    expect(toolSearchSettingsOf(config).alwaysLoad).toEqual([
      "files/read",
      "github/get_issue",
      "github/list_issues",
      "notes",
    ]);
    // "files" is no server of this config: the pin is likely misspelt, and pins nothing.
    expect(config.warnings).toEqual([
      'mcp.config.json: tools.search.alwaysLoad names "files/read", but there is no server "files" here; it pins nothing.',
    ]);
  });

  it("keeps the tools.search defaults for what it does not set", async () => {
    expect((await load({ tools: { search: { limit: 4 } } })).tools.search).toEqual({
      ...DEFAULT_TOOL_SEARCH,
      limit: 4,
    });
  });

  it("expands ${VAR} in command, args, env, cwd, url and headers", async () => {
    const config = await load(
      {
        mcpServers: {
          local: {
            command: "${BIN_DIR}/server",
            args: ["--port", "${PORT:-3000}", "${ROOT}"],
            env: { KEY: "${SECRET}", LEVEL: "${LEVEL:-warn}" },
            cwd: "${WORK}/sub",
          },
          remote: { url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${SECRET}" } },
        },
      },
      { BIN_DIR: "/opt/bin", ROOT: "/data", SECRET: "s3", WORK: "/work", HOST: "mcp.example.com" },
    );
    const [local, remote] = config.servers;
    expect(local).toMatchObject({
      command: "/opt/bin/server",
      args: ["--port", "3000", "/data"],
      env: { KEY: "s3", LEVEL: "warn" },
      cwd: path.resolve("/work/sub"),
    });
    expect(local?.problem).toBeUndefined();
    expect(remote).toMatchObject({
      url: "https://mcp.example.com/mcp",
      headers: { Authorization: "Bearer s3" },
    });
  });

  it("marks only the server that uses an unset variable as having a problem", async () => {
    const config = await load({
      mcpServers: {
        ok: { command: "node", args: ["a.js"] },
        remote: { url: "http://127.0.0.1:3001/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
        two: { command: "x", args: ["${A}", "${B}", "${A}"] },
      },
    });
    expect(config.servers.map((entry) => entry.problem)).toEqual([
      undefined,
      "${TOKEN} is not set (used in mcpServers.remote.headers.Authorization in mcp.config.json); set it in the environment or give a default like ${TOKEN:-value}.",
      "${A}, ${B} are not set (used in mcpServers.two.args[0] in mcp.config.json); set them in the environment or give a default like ${A:-value}.",
    ]);
  });

  it("marks a server whose url comes out of the environment malformed", async () => {
    const config = await load({ mcpServers: { remote: { url: "${URL}" } } }, { URL: "localhost:3000" });
    expect(config.servers[0]?.problem).toBe(
      'mcpServers.remote.url in mcp.config.json must be an http(s) URL, got "localhost:3000".',
    );
  });

  it("refuses a server that would send headers over plain http to another host, unless the entry opts in", async () => {
    const config = await load(
      {
        mcpServers: {
          remote: { url: "http://mcp.example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
          local: { url: "http://127.0.0.1:3001/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
          secure: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
          lan: {
            url: "http://10.0.0.5:3000/mcp",
            headers: { Authorization: "Bearer ${TOKEN}" },
            allowInsecureHttp: true,
          },
        },
      },
      { TOKEN: "t0k" },
    );
    expect(config.servers.map((entry) => [entry.name, entry.problem, entry.allowInsecureHttp])).toEqual([
      [
        "remote",
        'mcpServers.remote would send its headers (Authorization) in clear text to mcp.example.com over plain http, where anyone on the network path can read them; use an https:// URL, or add "allowInsecureHttp": true to mcpServers.remote in mcp.config.json if you trust that network.',
        undefined,
      ],
      ["local", undefined, undefined],
      ["secure", undefined, undefined],
      ["lan", undefined, true],
    ]);
    expect(config.warnings).toEqual([]);
  });

  it("gives an empty config when the default file does not exist", async () => {
    await expect(loadConfig({ explicit: false, cwd: dir, env: {} })).resolves.toEqual(emptyConfig());
  });

  it("resolves a relative --config against cwd and relative paths inside it against the file's folder", async () => {
    await write("conf/servers.json", {
      mcpServers: { s: { command: "node", cwd: "../srv" } },
      kb: { dir: "kb" },
    });
    const config = await loadConfig({ path: "conf/servers.json", explicit: true, cwd: dir, env: {} });
    expect(config.path).toBe(path.join(dir, "conf", "servers.json"));
    expect(config.servers[0]?.cwd).toBe(path.join(dir, "srv"));
    expect(config.kb.dir).toBe(path.join(dir, "conf", "kb"));
  });

  it.each(["../elsewhere", "/etc", "notes/../../up"])(
    "will not point the knowledge base outside the config's folder (%s): a warning, and the default folder",
    async (kbDir) => {
      const config = await load({ kb: { dir: kbDir } });
      expect(config.kb.dir).toBeUndefined();
      expect(config.warnings).toEqual([
        `mcp.config.json: kb.dir "${kbDir}" points outside this file's folder, which a project's config may not do; mcpterm uses the default folder instead (pass --kb to use that one).`,
      ]);
    },
  );

  it("says a telemetry block written for mcpterm is not read from a project; gemini-cli's block stays quiet", async () => {
    const mine = await load({ telemetry: { enabled: true, endpoint: "http://127.0.0.1:4318" } });
    expect(mine.warnings).toEqual([
      expect.stringMatching(
        /^mcp\.config\.json: "telemetry" is not read from a project's config.*--otlp-endpoint\.$/,
      ),
    ]);
    const gemini = await load({ telemetry: { enabled: true, target: "local", otlpEndpoint: "http://x" } });
    expect(gemini.warnings).toEqual([]);
  });

  it("follows a symlink inside the project that leads out of it, and refuses that too", async () => {
    const outside = await mkdtemp(path.join(tmpdir(), "mcpterm-outside-"));
    await symlink(outside, path.join(dir, "notes"));
    const config = await load({ kb: { dir: "notes" } });
    expect(config.kb.dir).toBeUndefined();
    expect(config.warnings).toHaveLength(1);
    expect((await load({ kb: { dir: "docs/notes" } })).kb.dir).toBe(path.join(dir, "docs", "notes"));
    await rm(outside, { recursive: true, force: true });
  });

  it("ignores a BOM and null values", async () => {
    const config = await load(
      `\uFEFF{"mcpServers": {"s": {"command": "node", "args": null, "env": null}}, "kb": null}`,
    );
    expect(config.servers[0]).toMatchObject({ args: [], env: {} });
  });
});

describe("loadConfig: keys mcpterm ignores are named, with the key meant", () => {
  it.each<[string, unknown, string[]]>([
    [
      "a misspelled mcpServers",
      { mcpServer: { fs: { command: "x" } } },
      ['mcp.config.json: unknown key "mcpServer" at the top level is ignored; did you mean "mcpServers"?'],
    ],
    [
      "the other spellings of it",
      { mcp_servers: {}, MCPServers: {}, servers: {} },
      [
        'mcp.config.json: unknown key "mcp_servers" at the top level is ignored; did you mean "mcpServers"?',
        'mcp.config.json: unknown key "MCPServers" at the top level is ignored; did you mean "mcpServers"?',
        'mcp.config.json: unknown key "servers" at the top level is ignored; did you mean "mcpServers"?',
      ],
    ],
    [
      "a top-level key no client writes",
      { knowledge: {} },
      [
        'mcp.config.json: unknown key "knowledge" at the top level is ignored; the keys mcpterm reads there are mcpServers, approval, kb, model, answers and tools.',
      ],
    ],
    [
      "unknown and misspelled keys in tools.search",
      { tools: { search: { mod: "off", budget: 3 } } },
      [
        'mcp.config.json: unknown key "mod" in tools.search is ignored; did you mean "mode"?',
        'mcp.config.json: unknown key "budget" in tools.search is ignored; the keys mcpterm reads there are mode, windowShare, maxTools, limit and alwaysLoad.',
      ],
    ],
    [
      "misspelled keys in a server entry",
      { mcpServers: { fs: { command: "x", evn: {}, disable: true, excludeTool: ["rm"], tier: {} } } },
      [
        'mcp.config.json: unknown key "evn" in mcpServers.fs is ignored; did you mean "env"?',
        'mcp.config.json: unknown key "disable" in mcpServers.fs is ignored; did you mean "disabled"?',
        'mcp.config.json: unknown key "excludeTool" in mcpServers.fs is ignored; did you mean "excludeTools"?',
        'mcp.config.json: unknown key "tier" in mcpServers.fs is ignored; did you mean "tiers"?',
      ],
    ],
    [
      "unknown keys in approval, kb and model",
      { approval: { autos: [], mode: "ask" }, kb: { directory: "k", topk: 2 }, model: { nam: "m" } },
      [
        'mcp.config.json: unknown key "autos" in approval is ignored; did you mean "auto"?',
        'mcp.config.json: unknown key "mode" in approval is ignored; the only key mcpterm reads there is auto.',
        'mcp.config.json: unknown key "directory" in kb is ignored; the keys mcpterm reads there are enabled, dir, topK and embeddings.',
        'mcp.config.json: unknown key "topk" in kb is ignored; did you mean "topK"?',
        'mcp.config.json: unknown key "nam" in model is ignored; did you mean "name"?',
      ],
    ],
  ])("%s", async (_name, document, warnings) => {
    expect((await load(document)).warnings).toEqual(warnings);
  });

  it("still loads what it knows", async () => {
    const config = await load({ mcpServers: { fs: { command: "x", disable: true } }, kb: { topk: 2 } });
    expect(config.servers[0]).toMatchObject({ name: "fs", disabled: false });
    expect(config.kb.topK).toBe(4);
  });
});

describe("loadConfig: errors are one sentence naming file, key and expectation", () => {
  it.each<[string, unknown, string]>([
    [
      "top level not an object",
      [1, 2],
      "mcp.config.json: the top level must be a JSON object, got an array.",
    ],
    [
      "tools.search.mode not one of its values",
      { tools: { search: { mode: "sometimes" } } },
      'mcp.config.json: tools.search.mode must be one of auto, always, off, got "sometimes".',
    ],
    [
      "tools.search.windowShare out of range",
      { tools: { search: { windowShare: 25 } } },
      "mcp.config.json: tools.search.windowShare must be a number from 0 to 1, got 25.",
    ],
    [
      "tools.search.limit not a whole number",
      { tools: { search: { limit: 0 } } },
      "mcp.config.json: tools.search.limit must be a positive whole number, got 0.",
    ],
    [
      "alwaysLoad neither a boolean nor a list",
      { mcpServers: { fs: { command: "x", alwaysLoad: "all" } } },
      "mcp.config.json: mcpServers.fs.alwaysLoad must be true, false or an array of tool names, got a string.",
    ],
    [
      "mcpServers not an object",
      { mcpServers: [] },
      "mcp.config.json: mcpServers must be an object, got an array.",
    ],
    [
      "a server not an object",
      { mcpServers: { fs: "npx" } },
      "mcp.config.json: mcpServers.fs must be an object, got a string.",
    ],
    [
      "args not an array",
      { mcpServers: { filesystem: { command: "npx", args: 3 } } },
      "mcp.config.json: mcpServers.filesystem.args must be an array of strings, got a number.",
    ],
    [
      "an arg not a string",
      { mcpServers: { fs: { command: "npx", args: ["-y", 2] } } },
      "mcp.config.json: mcpServers.fs.args[1] must be a string, got a number.",
    ],
    [
      "command not a string",
      { mcpServers: { fs: { command: ["npx"] } } },
      "mcp.config.json: mcpServers.fs.command must be a string, got an array.",
    ],
    [
      "env value not a string",
      { mcpServers: { fs: { command: "x", env: { PORT: 80 } } } },
      "mcp.config.json: mcpServers.fs.env.PORT must be a string, got a number.",
    ],
    [
      "headers not an object",
      { mcpServers: { r: { url: "http://x", headers: "Bearer" } } },
      "mcp.config.json: mcpServers.r.headers must be an object of string values, got a string.",
    ],
    [
      "a timeout that is not a positive whole number",
      { mcpServers: { fs: { command: "x", timeoutMs: -5 } } },
      "mcp.config.json: mcpServers.fs.timeoutMs must be a positive whole number, got -5.",
    ],
    [
      "gemini's timeout as a string",
      { mcpServers: { fs: { command: "x", timeout: "10s" } } },
      "mcp.config.json: mcpServers.fs.timeout must be a positive whole number, got a string.",
    ],
    [
      "a timeout past what a timer can wait, which would fire at once",
      { mcpServers: { fs: { command: "x", startupTimeoutMs: 2147483648 } } },
      "mcp.config.json: mcpServers.fs.startupTimeoutMs must be at most 2147483647 (about 24.8 days), got 2147483648.",
    ],
    [
      "maxCallMs past what a timer can wait",
      { mcpServers: { fs: { command: "x", maxCallMs: 3000000000 } } },
      "mcp.config.json: mcpServers.fs.maxCallMs must be at most 2147483647 (about 24.8 days), got 3000000000.",
    ],
    [
      "a model timeout past what a timer can wait",
      { model: { idleTimeoutMs: 1e12 } },
      "mcp.config.json: model.idleTimeoutMs must be at most 2147483647 (about 24.8 days), got 1000000000000.",
    ],
    [
      "allowInsecureHttp not a boolean",
      { mcpServers: { r: { url: "http://h.example", allowInsecureHttp: "yes" } } },
      "mcp.config.json: mcpServers.r.allowInsecureHttp must be true or false, got a string.",
    ],
    [
      "disabled not a boolean",
      { mcpServers: { fs: { command: "x", disabled: "yes" } } },
      "mcp.config.json: mcpServers.fs.disabled must be true or false, got a string.",
    ],
    [
      "a server with neither command nor url",
      { mcpServers: { empty: { args: ["x"] } } },
      'mcp.config.json: mcpServers.empty needs "command" (to start a local server) or "url" (to reach a remote one).',
    ],
    [
      "a server with both command and url",
      { mcpServers: { both: { command: "x", url: "http://x" } } },
      'mcp.config.json: mcpServers.both has both "command" and "url"; keep one, or add "type" to say which to use.',
    ],
    [
      "an unknown type",
      { mcpServers: { s: { type: "websocket", url: "ws://x" } } },
      'mcp.config.json: mcpServers.s.type must be one of stdio, http, sse, streamable-http, streamableHttp, got "websocket".',
    ],
    [
      "type stdio without command",
      { mcpServers: { s: { type: "stdio", url: "http://x" } } },
      'mcp.config.json: mcpServers.s has type "stdio" but no "command".',
    ],
    [
      "type sse without url",
      { mcpServers: { s: { type: "sse", command: "x" } } },
      'mcp.config.json: mcpServers.s has type "sse" but no "url".',
    ],
    [
      "a literal url that is not http(s)",
      { mcpServers: { s: { url: "localhost:3000/mcp" } } },
      'mcp.config.json: mcpServers.s.url must be an http(s) URL, got "localhost:3000/mcp".',
    ],
    [
      "a tier that does not exist",
      { mcpServers: { fs: { command: "x", tiers: { write_file: "risky" } } } },
      'mcp.config.json: mcpServers.fs.tiers.write_file must be one of read_only, low_risk, dangerous, external, got "risky".',
    ],
    [
      "tiers not an object",
      { mcpServers: { fs: { command: "x", tiers: ["dangerous"] } } },
      "mcp.config.json: mcpServers.fs.tiers must be an object mapping tool names to tiers, got an array.",
    ],
    [
      "an approval.auto entry that is not a tier",
      { approval: { auto: ["read_only", "everything"] } },
      'mcp.config.json: approval.auto[1] must be one of read_only, low_risk, dangerous, external, got "everything".',
    ],
    [
      "approval.auto not an array",
      { approval: { auto: "read_only" } },
      "mcp.config.json: approval.auto must be an array of tiers (read_only, low_risk, dangerous, external), got a string.",
    ],
    ["kb.topK zero", { kb: { topK: 0 } }, "mcp.config.json: kb.topK must be a positive whole number, got 0."],
    [
      "model.name a number",
      { model: { name: 4 } },
      "mcp.config.json: model.name must be a string, got a number.",
    ],
    [
      "a server name that is not a plain word",
      { mcpServers: { "my server": { command: 1 } } },
      'mcp.config.json: mcpServers["my server"].command must be a string, got a number.',
    ],
    // No process can be started with a NUL in its command line, folder or environment: Node's own
    // error came out at start (exit 4) until the config said so itself.
    [
      "a NUL in a server's argument",
      { mcpServers: { s: { command: "node", args: ["ok", "a\u0000b"] } } },
      'mcp.config.json: mcpServers.s.args[1] must be text without a NUL character (\\u0000), which no command line or path can hold, got "a\\u0000b".',
    ],
    [
      "a NUL in a server's command",
      { mcpServers: { s: { command: "no\u0000de" } } },
      'mcp.config.json: mcpServers.s.command must be text without a NUL character (\\u0000), which no command line or path can hold, got "no\\u0000de".',
    ],
    [
      "a NUL in an environment variable's name",
      { mcpServers: { s: { command: "node", env: { "A\u0000B": "x" } } } },
      'mcp.config.json: mcpServers.s.env must be text without a NUL character (\\u0000), which no command line or path can hold, got "A\\u0000B".',
    ],
    // Listed and started, it could be reached by nothing: no call, no /mcp, no tool of the model's.
    [
      "a server with an empty name",
      { mcpServers: { " ": { command: "node" } } },
      'mcp.config.json: mcpServers[" "] has an empty name; give the server a name (calls and /mcp use it: "name/tool").',
    ],
  ])("%s", async (_name, document, message) => {
    await expect(load(document)).rejects.toThrow(new ConfigError(message));
  });

  it.each<[string, string, string]>([
    [
      "a trailing comma",
      '{\n  "mcpServers": {\n    "a": {"command": "x"},\n  }\n}',
      "mcp.config.json is not valid JSON (line 4, column 3): Expected double-quoted property name; fix the file or pass --config <file>.",
    ],
    [
      "a missing colon",
      '{\n  "mcpServers"\n}',
      "mcp.config.json is not valid JSON (line 3, column 1): Expected ':' after property name; fix the file or pass --config <file>.",
    ],
    [
      "a cut-off file",
      '{\n  "mcpServers":',
      "mcp.config.json is not valid JSON (line 2, column 16): the file ends before the JSON is complete; fix the file or pass --config <file>.",
    ],
    [
      "an empty file",
      "",
      "mcp.config.json is not valid JSON (line 1, column 1): the file ends before the JSON is complete; fix the file or pass --config <file>.",
    ],
    [
      "a misspelled literal, where V8 gives no position",
      '{"mcpServers": tru}',
      "mcp.config.json is not valid JSON: Unexpected token '}'; fix the file or pass --config <file>.",
    ],
    [
      // A link a cloned repository planted (to /proc/self/environ, say): none of it is quoted.
      "a file that is not JSON at all, which V8 quotes in part",
      "SHELL=/bin/bash\nAWS_SECRET_ACCESS_KEY=abc123\n",
      "mcp.config.json is not valid JSON: Unexpected token 'S'; fix the file or pass --config <file>.",
    ],
    [
      "a bare value past the start, which V8 quotes with what stands before it",
      '{"mcpServers": {"a": {"command": ghp_SECRETSECRETSECRET1234}}}',
      "mcp.config.json is not valid JSON: Unexpected token 'g'; fix the file or pass --config <file>.",
    ],
  ])("invalid JSON: %s", async (_name, text, message) => {
    await expect(load(text)).rejects.toThrow(new ConfigError(message));
  });

  it.each<[string, string, string]>([
    [
      "a server written twice",
      '{\n  "mcpServers": {\n    "fetch": { "command": "a" },\n    "other": { "command": "b" },\n    "fetch": { "command": "c" }\n  }\n}',
      'mcp.config.json: mcpServers has "fetch" twice (line 3, column 5 and line 5, column 5); keep one.',
    ],
    [
      "a command written twice in one server",
      '{"mcpServers": {"fs": {"command": "node", "command": "sh"}}}',
      'mcp.config.json: mcpServers.fs has "command" twice (line 1, column 24 and line 1, column 43); keep one.',
    ],
    [
      "a top-level key written twice",
      '{"approval": {"auto": []},\n"approval": {"auto": ["read_only"]}}',
      'mcp.config.json: the top level has "approval" twice (line 1, column 2 and line 2, column 1); keep one.',
    ],
  ])("a duplicate key: %s", async (_name, text, message) => {
    await expect(load(text)).rejects.toThrow(new ConfigError(message));
  });

  it("names the file as given when an explicit --config does not exist", async () => {
    await expect(loadConfig({ path: "./x.json", explicit: true, cwd: dir, env: {} })).rejects.toThrow(
      new ConfigError(
        "Config file ./x.json does not exist; check the path, or leave out --config to use ./mcp.config.json when there is one.",
      ),
    );
  });

  it("names a file outside cwd by its absolute path", async () => {
    const file = await write("elsewhere/bad.json", { mcpServers: { s: {} } });
    const cwd = path.join(dir, "project");
    await mkdir(cwd);
    await expect(loadConfig({ path: file, explicit: true, cwd, env: {} })).rejects.toThrow(
      new ConfigError(
        `${file}: mcpServers.s needs "command" (to start a local server) or "url" (to reach a remote one).`,
      ),
    );
  });
});

describe("loadConfig: the oauth settings of workload identity and DPoP", () => {
  const url = "https://mcp.example.com/mcp";
  const issuer = "https://as.example.com";

  it("reads a workload's JWT (through ${VAR}) and dpop", async () => {
    const config = await load(
      {
        mcpServers: {
          job: {
            url,
            oauth: { grant: "workload", issuer, clientId: "ci-job", assertion: "${JOB_JWT}", dpop: true },
          },
        },
      },
      { JOB_JWT: "eyJ.workload.jwt" },
    );
    expect(config.servers[0]?.oauth).toMatchObject({
      grant: "workload",
      issuer,
      clientId: "ci-job",
      assertion: "eyJ.workload.jwt",
      dpop: true,
    });
  });

  it.each([
    [{ clientId: "ci-job" }, 'has grant "workload" but neither "assertion" nor "assertionFile"; give one'],
    [
      { clientId: "ci-job", assertion: "a", assertionFile: "/run/jwt" },
      'has grant "workload" but both "assertion" and "assertionFile"; give one',
    ],
    [{ assertion: "a" }, 'has grant "workload" but no "clientId"'],
    [{ issuer: undefined, clientId: "ci-job", assertion: "a" }, 'has grant "workload" but no "issuer"'],
  ])("a workload entry missing what it needs says so: %o", async (settings, sentence) => {
    const oauth = { grant: "workload", issuer, ...settings };
    await expect(load({ mcpServers: { job: { url, oauth } } })).rejects.toThrow(sentence);
  });
});
