import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import { cleanEnv } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";

const TOKEN = "kb-team-token-0123456789abcdef";
let child: ChildProcess;
let url: URL;
let dir: string;
let stderr = "";

beforeAll(async () => {
  dir = await tempDir("mcpterm-serve-http-");
  await mkdir(path.join(dir, "knowledge_base"));
  await writeFile(
    path.join(dir, "knowledge_base", "deploy.md"),
    "# Deploy\n\n## Rollback\n\nRoll back with kubectl rollout undo.\n",
  );
  child = spawn(process.execPath, [CLI, "serve", "--http", "0", "--token-env", "KB_TOKEN"], {
    cwd: dir,
    env: cleanEnv({ KB_TOKEN: TOKEN }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
    if (found) {
      url = new URL(found);
      break;
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

afterAll(() => {
  if (child.exitCode === null) child.kill("SIGKILL");
});

async function connect(token = TOKEN): Promise<Client> {
  const client = new Client({ name: "team", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** One raw POST of an initialize request, with the headers given (node:http lets a test set Host). */
function post(
  headers: Record<string, string>,
): Promise<{ status: number; body: string; session: string | undefined }> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        const session = res.headers["mcp-session-id"] as string | undefined;
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, session }));
        // An accepted initialize answers on an SSE stream that stays open: the status is enough.
        if (res.statusCode === 200) {
          resolve({ status: 200, body: "", session });
          res.destroy();
        }
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("mcpterm serve --http", () => {
  it("binds to 127.0.0.1 by default and says where", () => {
    expect(url.hostname).toBe("127.0.0.1");
    expect(url.pathname).toBe("/mcp");
    expect(stderr).toContain("bearer token from $KB_TOKEN");
    expect(stderr).not.toContain(TOKEN);
  });

  it("lets a client with the token list and call everything", async () => {
    const client = await connect();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "search_knowledge_base",
      "read_document",
      "knowledge_base_stats",
    ]);
    const search = await client.callTool({ name: "search_knowledge_base", arguments: { query: "rollback" } });
    expect(JSON.stringify(search.structuredContent)).toContain("deploy.md");
    const read = await client.callTool({
      name: "read_document",
      arguments: { path: "deploy.md", startLine: 3, endLine: 3 },
    });
    expect(read.structuredContent).toMatchObject({ text: "## Rollback" });
    const refused = await client.callTool({
      name: "read_document",
      arguments: { path: "../mcp.config.json" },
    });
    expect(refused.isError).toBe(true);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([
      "kb://deploy.md",
    ]);
    expect(
      (await client.readResource({ uri: "kb://deploy.md?startLine=1&endLine=1" })).contents[0],
    ).toMatchObject({
      text: "# Deploy",
    });
    expect((await client.listResourceTemplates()).resourceTemplates).toHaveLength(1);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual([
      "answer_with_sources",
      "summarize_document",
    ]);
    const prompt = await client.getPrompt({ name: "summarize_document", arguments: { path: "deploy.md" } });
    expect(prompt.messages).toHaveLength(2);
    const completion = await client.complete({
      ref: { type: "ref/prompt", name: "summarize_document" },
      argument: { name: "path", value: "dep" },
    });
    expect(completion.completion.values).toEqual(["deploy.md"]);
    await client.setLoggingLevel("warning");
    await client.close();
  });

  it("serves two clients at once", async () => {
    const [one, two] = await Promise.all([connect(), connect()]);
    const [a, b] = await Promise.all([one.listResources(), two.listResources()]);
    expect(a).toEqual(b);
    await Promise.all([one.close(), two.close()]);
  });

  it("refuses a client without the token, or with another one", async () => {
    await expect(connect("wrong-token")).rejects.toThrow();
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: "Bearer wrong" })).status).toBe(401);
  });

  it("refuses a cross-origin request with 403, and allows localhost pages and no Origin", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const cross = await post({ ...auth, origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(cross.body).toContain("evil.example");
    expect((await post({ ...auth, origin: "null" })).status).toBe(403);
    expect((await post({ ...auth, origin: "http://localhost:5173" })).status).toBe(200);
    expect((await post({ ...auth, origin: `http://127.0.0.1:${url.port}` })).status).toBe(200);
    expect((await post(auth)).status).toBe(200);
  });

  it("refuses a Host that is not this machine (DNS rebinding)", async () => {
    const rebound = await post({ authorization: `Bearer ${TOKEN}`, host: `evil.example:${url.port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain("answers only to localhost");
  });

  it("closes the least recently used session when clients leave theirs behind", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const first = await post(auth);
    expect(first.session).toBeTypeOf("string");
    for (let i = 0; i < 64; i++) expect((await post(auth)).status).toBe(200);
    const stale = await fetch(url, {
      method: "POST",
      headers: {
        ...auth,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": first.session ?? "",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(stale.status).toBe(404);
    const client = await connect();
    expect((await client.listTools()).tools).toHaveLength(3);
    await client.close();
  });

  it("answers GET and DELETE without a session with 405, as 2026-07-28 asks", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    for (const method of ["GET", "DELETE", "PUT"]) {
      const response = await fetch(url, {
        method,
        headers: {
          ...auth,
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
        },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
        /send requests with POST/,
      );
    }
    // A 2025 session still ends with DELETE.
    const opened = await post(auth);
    const ended = await fetch(url, {
      method: "DELETE",
      headers: { ...auth, "mcp-session-id": opened.session ?? "", "mcp-protocol-version": "2025-06-18" },
    });
    expect(ended.status).toBe(200);
  });

  it("stops on SIGTERM with 143", async () => {
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(143);
  });
});

describe("mcpterm serve --http, refused set-ups", () => {
  it.each([
    [
      ["serve", "--http", "0", "--host", "0.0.0.0"],
      {},
      "--host 0.0.0.0 lets other machines reach the knowledge base",
    ],
    [
      ["serve", "--http", "0", "--token-env", "NOT_SET"],
      {},
      "--token-env names NOT_SET, which is not set or empty",
    ],
    [["serve", "--token-env", "KB_TOKEN"], { KB_TOKEN: "x" }, "--token-env only apply with --http <port>"],
    [
      ["serve", "--http", "0", "--token-env", "KB_TOKEN"],
      { KB_TOKEN: " kb-team-token-0123456789\n" },
      "The token in KB_TOKEN holds whitespace",
    ],
    [
      ["serve", "--http", "0", "--token-env", "KB_TOKEN"],
      { KB_TOKEN: "kb-team token-0123456789" },
      "The token in KB_TOKEN holds whitespace",
    ],
    [["serve", "--http", "70000"], {}, "--http must be a port from 0 to 65535"],
  ])("%j is a usage error", async (args, env, message) => {
    const folder = await tempDir("mcpterm-serve-bad-");
    const run = await runInProcess(args, { cwd: folder, env: cleanEnv(env) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stdout).toBe("");
  });
});

describe("mcpterm serve --http, a token in a variable whose name does not look secret", () => {
  it("never answers with the token, even from a document that holds it", async () => {
    const folder = await tempDir("mcpterm-serve-word-");
    const word = "plain-looking-team-word-42";
    await mkdir(path.join(folder, "knowledge_base"));
    await writeFile(
      path.join(folder, "knowledge_base", "setup.md"),
      `# Setup\n\nConnect with the team word ${word} in the header.\n`,
    );
    const server = spawn(process.execPath, [CLI, "serve", "--http", "0", "--token-env", "TEAM_WORD"], {
      cwd: folder,
      env: cleanEnv({ TEAM_WORD: word }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let said = "";
    server.stderr.setEncoding("utf8").on("data", (chunk: string) => (said += chunk));
    try {
      const address = await new Promise<URL>((resolve, reject) => {
        server.stderr.on("data", () => {
          const found = /listening on (http:\/\/\S+)/.exec(said)?.[1];
          if (found) resolve(new URL(found));
        });
        server.once("exit", () => reject(new Error(`serve did not start: ${said}`)));
      });
      const client = new Client({ name: "team", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(address, {
          requestInit: { headers: { authorization: `Bearer ${word}` } },
        }),
      );
      const read = await client.callTool({ name: "read_document", arguments: { path: "setup.md" } });
      const text = JSON.stringify(read);
      expect(text).toContain("Connect with the team word");
      expect(text).not.toContain(word);
      const resource = JSON.stringify(await client.readResource({ uri: "kb://setup.md" }));
      expect(resource).toContain("Connect with the team word");
      expect(resource).not.toContain(word);
      await client.close();
    } finally {
      server.kill("SIGKILL");
    }
  });
});
