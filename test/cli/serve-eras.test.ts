import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * `mcpterm serve` to clients of both revisions, seen from outside: mcpterm itself pinned to
 * 2025-11-25 or 2026-07-28 (and left to ask), on stdio and over --http.
 */
let dir: string;
let serve: ChildProcess;
let url: string;
let stderr = "";

beforeAll(async () => {
  dir = await tempDir("mcpterm-serve-eras-");
  await mkdir(path.join(dir, "knowledge_base"));
  await writeFile(path.join(dir, "knowledge_base", "a.md"), "# A\n\nalpha beta gamma\n");
  serve = spawn(process.execPath, [CLI, "serve", "--http", "0"], {
    cwd: dir,
    env: cleanEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  serve.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
    if (found) {
      url = found;
      break;
    }
    if (Date.now() > deadline || serve.exitCode !== null) throw new Error(`serve did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

afterAll(() => {
  if (serve.exitCode === null) serve.kill("SIGKILL");
});

const cli = (args: string[]) => runCli(args, { cwd: dir, env: cleanEnv() });
const overStdio = ["--", process.execPath, CLI, "serve"];
const overHttp = () => ["--url", url];

interface ToolsJson {
  servers: Array<{ status: string; era?: string; protocolVersion?: string; tools: Array<{ name: string }> }>;
}

describe.each([
  ["stdio", () => overStdio],
  ["--http", overHttp],
])("mcpterm serve (%s) to each revision", (_transport, target) => {
  it.each([
    ["2025-11-25", "legacy", "2025-11-25"],
    ["2026-07-28", "modern", "2026-07-28"],
    ["auto", "modern", "2026-07-28"],
  ])("--protocol %s: connects %s at %s and lists the tools", async (protocol, era, version) => {
    const run = await cli(["tools", "--json", "--protocol", protocol, ...target()]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const [server] = (JSON.parse(run.stdout) as ToolsJson).servers;
    expect(server).toMatchObject({ status: "connected", era, protocolVersion: version });
    expect(server?.tools.map((tool) => tool.name)).toEqual([
      "search_knowledge_base",
      "read_document",
      "knowledge_base_stats",
    ]);
  });

  it.each(["2025-11-25", "2026-07-28"])(
    "--protocol %s: calls a tool and gets its answer",
    async (protocol) => {
      const run = await cli(["call", "read_document", "path=a.md", "--protocol", protocol, ...target()]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("alpha beta gamma");
    },
  );
});

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};
const LISTEN = {
  jsonrpc: "2.0",
  id: 1,
  method: "subscriptions/listen",
  params: { notifications: { resourcesListChanged: true }, _meta: META },
};

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("a 2026 client's subscription to mcpterm serve", () => {
  it("on stdio: a document added while serving is told as a resource list change", async () => {
    const child = spawn(process.execPath, [CLI, "serve"], { cwd: dir, env: cleanEnv() });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    try {
      child.stdin.write(`${JSON.stringify(LISTEN)}\n`);
      await until(() => out.includes("notifications/subscriptions/acknowledged"), "the acknowledgement");
      await writeFile(path.join(dir, "knowledge_base", "stdio-added.md"), "# Added\n\nepsilon\n");
      await until(() => out.includes("notifications/resources/list_changed"), "the list change");
    } finally {
      child.stdin.end();
      child.kill();
    }
  });

  it("over --http: the list change arrives on the listen stream", async () => {
    const stop = new AbortController();
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "subscriptions/listen",
      },
      body: JSON.stringify(LISTEN),
      signal: stop.signal,
    });
    expect(response.status).toBe(200);
    let events = "";
    const reader = response.body?.getReader();
    const decoder = new TextDecoder();
    const reading = (async () => {
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) return;
        events += decoder.decode(chunk.value, { stream: true });
      }
    })().catch(() => undefined);
    try {
      await until(() => events.includes("notifications/subscriptions/acknowledged"), "the acknowledgement");
      await writeFile(path.join(dir, "knowledge_base", "http-added.md"), "# Added\n\nzeta\n");
      await until(() => events.includes("notifications/resources/list_changed"), "the list change");
    } finally {
      stop.abort();
      await reading;
    }
  });
});

describe.each(["2025-11-25", "2026-07-28"])("mcpterm serve to a %s client, on stdio", (protocol) => {
  // The resource handlers are set on the low-level server (pages); they answer either era.
  it("lists resources and the template, reads a range, and fills a prompt", async () => {
    const resources = await cli(["resources", "--protocol", protocol, ...overStdio]);
    expect(resources.code).toBe(0);
    expect(resources.stdout).toContain("  kb://a.md  a.md  text/markdown\n");
    expect(resources.stdout).toContain("template kb://{+path}{?startLine,endLine}");
    const read = await cli(["read", "kb://a.md?startLine=3&endLine=3", "--protocol", protocol, ...overStdio]);
    expect(read).toMatchObject({ code: 0, stdout: "alpha beta gamma\n" });
    const prompt = await cli(["prompts", "summarize_document", "a.md", "--protocol", protocol, ...overStdio]);
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toContain("Summarize the knowledge-base document a.md");
  });
});

describe("mcpterm serve, a 2026 client that writes its requests and closes stdin", () => {
  it("gets every answer before serve exits 0", async () => {
    const meta = META;
    const input = [
      { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "read_document", arguments: { path: "a.md" }, _meta: meta },
      },
    ]
      .map((message) => `${JSON.stringify(message)}\n`)
      .join("");
    const run = await runCli(["serve"], { cwd: dir, env: cleanEnv(), input });
    expect(run.code).toBe(0);
    const answers = run.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: number; result?: Record<string, unknown> });
    const discover = answers.find((answer) => answer.id === 1)?.result;
    expect(discover?.supportedVersions).toContain("2026-07-28");
    expect(JSON.stringify(answers.find((answer) => answer.id === 2)?.result)).toContain("alpha beta gamma");
  });
});

describe("mcpterm serve --http, a 2025 client's session", () => {
  it("keeps the log level it set: a re-index is logged to it at info, and the list change told", async () => {
    const client = new Client({ name: "team", version: "1" });
    const logs: string[] = [];
    let listChanged = 0;
    client.setNotificationHandler(
      "notifications/message",
      (note) => void logs.push(String(note.params.data)),
    );
    client.setNotificationHandler("notifications/resources/list_changed", () => {
      listChanged++;
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      expect(client.getProtocolEra()).not.toBe("modern");
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- a 2025 session is what is tested.
      await client.setLoggingLevel("info");
      await writeFile(path.join(dir, "knowledge_base", "b.md"), "# B\n\ndelta\n");
      const deadline = Date.now() + 20_000;
      while (!(listChanged > 0 && logs.some((log) => log.includes("1 added")))) {
        if (Date.now() > deadline) throw new Error(`no log or list change: ${JSON.stringify(logs)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      await client.close();
    }
  });
});
