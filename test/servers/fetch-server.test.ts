import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchServer } from "../../src/servers/fetch/create-fetch-server.js";
import { FETCH_SERVER } from "../support/fixtures.js";

const LARGE = "0123456789".repeat(5_000) + "é😀end";

const PAGE = `<!doctype html><html><head><title>Test page</title><style>body{color:red}</style>
<script>window.secret = "do not show"</script></head>
<body><nav>Site navigation</nav>
<main><h1>Hello</h1><p>Some <strong>bold</strong> text and a <a href="/x">link</a>.</p>
<noscript>enable js</noscript><svg><text>drawing</text></svg><ul><li>one</li><li>two</li></ul></main>
<footer>Footer text</footer></body></html>`;

const PLAIN_PAGE = `<html><head><title>Plain</title><meta name="x" content="meta text"></head>
<body><h2>Section</h2><p>Body only.</p><script>hidden()</script></body></html>`;

interface Reply {
  status: number;
  type: string;
  body: string | Buffer;
  location?: string;
}

const ROUTES: Record<string, Reply> = {
  "/page": { status: 200, type: "text/html; charset=utf-8", body: PAGE },
  "/plain-page": { status: 200, type: "text/html", body: PLAIN_PAGE },
  "/text": { status: 200, type: "text/plain; charset=utf-8", body: "just text\n  kept as is" },
  "/readme.md": { status: 200, type: "text/markdown", body: "# Title\n\n- item" },
  "/data": { status: 200, type: "application/json", body: '{"name":"mcpterm","tags":["a","b"]}' },
  "/redirect": { status: 302, type: "text/plain", body: "", location: "/text" },
  "/loop": { status: 302, type: "text/plain", body: "", location: "/loop" },
  "/large": { status: 200, type: "text/plain; charset=utf-8", body: LARGE },
  "/image": { status: 200, type: "image/png", body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]) },
};
const NOT_FOUND: Reply = { status: 404, type: "text/plain", body: "not here" };

function startSite(): Promise<Server> {
  const site = createServer((request, response) => {
    const reply = ROUTES[request.url ?? ""] ?? NOT_FOUND;
    const headers: Record<string, string> = { "content-type": reply.type };
    if (reply.location !== undefined) headers.location = reply.location;
    response.writeHead(reply.status, headers).end(reply.body);
  });
  return new Promise((resolve) => {
    site.listen(0, "127.0.0.1", () => {
      resolve(site);
    });
  });
}

/** The fetch server in this process, allowed to reach the local test site: its behaviour is the point. */
async function connectInMemory(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createFetchServer({ allowPrivate: true }).connect(serverSide);
  const client = new Client({ name: "fetch-server-test", version: "0.0.0" });
  await client.connect(clientSide);
  return client;
}

/** The built server as mcpterm starts it, so the shipped default (no private addresses) is what is tested. */
async function connectProcess(): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FETCH_SERVER],
    env: { PATH: process.env.PATH ?? "" },
    stderr: "pipe",
  });
  const client = new Client({ name: "fetch-server-test", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

let site: Server;
let base: string;
let client: Client;
let guardedClient: Client;

beforeAll(async () => {
  site = await startSite();
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  [client, guardedClient] = await Promise.all([connectInMemory(), connectProcess()]);
});

afterAll(async () => {
  await Promise.all([client.close(), guardedClient.close()]);
  await new Promise<void>((resolve) => {
    site.close(() => {
      resolve();
    });
  });
});

async function fetchTool(
  args: Record<string, unknown>,
  via: Client = client,
): Promise<{ text: string; isError: boolean }> {
  const result = (await via.callTool({ name: "fetch", arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  return { text, isError: result.isError === true };
}

describe("bundled fetch server", () => {
  it("lists one read-only, open-world fetch tool", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["fetch"]);
    expect(tools[0]?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(tools[0]?.title).toBeTruthy();
    expect(Object.keys(tools[0]?.inputSchema.properties ?? {})).toEqual([
      "url",
      "max_length",
      "start_index",
      "raw",
    ]);
  });

  it("converts HTML to Markdown, keeping the main content and dropping scripts and styles", async () => {
    const { text, isError } = await fetchTool({ url: `${base}/page` });
    expect(isError).toBe(false);
    expect(text).toContain("# Test page");
    expect(text).toContain("# Hello");
    expect(text).toContain("Some **bold** text and a [link](/x).");
    expect(text).toMatch(/-\s+one/);
    for (const hidden of [
      "do not show",
      "color:red",
      "enable js",
      "drawing",
      "Site navigation",
      "Footer text",
    ]) {
      expect(text).not.toContain(hidden);
    }
  });

  it("converts the body of a page without <main> and adds its title once", async () => {
    expect(await fetchTool({ url: `${base}/plain-page` })).toEqual({
      text: "# Plain\n\n## Section\n\nBody only.",
      isError: false,
    });
  });

  it("returns HTML as is when raw is set", async () => {
    const { text } = await fetchTool({ url: `${base}/page`, raw: true });
    expect(text).toBe(PAGE);
  });

  it.each([
    ["/text", "just text\n  kept as is"],
    ["/readme.md", "# Title\n\n- item"],
    ["/data", '{\n  "name": "mcpterm",\n  "tags": [\n    "a",\n    "b"\n  ]\n}'],
  ])("passes %s through as text", async (route, expected) => {
    expect(await fetchTool({ url: `${base}${route}` })).toEqual({ text: expected, isError: false });
  });

  it("follows a redirect and says where it ended", async () => {
    const { text, isError } = await fetchTool({ url: `${base}/redirect` });
    expect(isError).toBe(false);
    expect(text).toBe(`(redirected to ${base}/text)\njust text\n  kept as is`);
  });

  it.each([
    ["/missing", (url: string) => `${url} answered HTTP 404 Not Found.`],
    ["/loop", (url: string) => `${url} redirected more than 5 times; giving up.`],
    [
      "/image",
      (url: string) =>
        `${url} is image/png, which this tool cannot read; it reads HTML, plain text, Markdown and JSON.`,
    ],
  ])("reports %s as an error result", async (route, message) => {
    const url = `${base}${route}`;
    expect(await fetchTool({ url })).toEqual({ text: message(url), isError: true });
  });

  it("refuses schemes other than http and https", async () => {
    expect(await fetchTool({ url: "file:///etc/passwd" })).toEqual({
      text: "Only http:// and https:// URLs can be fetched, got file://.",
      isError: true,
    });
  });

  it("cuts long content and continues from start_index, counting code points", async () => {
    const total = Array.from(LARGE).length;
    const first = await fetchTool({ url: `${base}/large` });
    expect(first.text).toBe(
      `${LARGE.slice(0, 20_000)}\n\n[content truncated: showing 0-20000 of ${total} characters; call again with start_index=20000]`,
    );
    const last = await fetchTool({ url: `${base}/large`, start_index: 49_999, max_length: 5 });
    expect(last.text).toBe(
      `9é😀en\n\n[content truncated: showing 49999-50004 of ${total} characters; call again with start_index=50004]`,
    );
    const end = await fetchTool({ url: `${base}/large`, start_index: 50_004 });
    expect(end).toEqual({ text: "d", isError: false });
    const past = await fetchTool({ url: `${base}/large`, start_index: 60_000 });
    expect(past).toEqual({
      text: `start_index 60000 is past the end of the content (${total} characters); there is nothing more to read.`,
      isError: true,
    });
  });

  it("rejects a max_length above the limit", async () => {
    const { isError, text } = await fetchTool({ url: `${base}/text`, max_length: 500_000 });
    expect(isError).toBe(true);
    expect(text).toContain("max_length");
  });

  it("refuses 127.0.0.1 without MCPTERM_FETCH_ALLOW_PRIVATE=1", async () => {
    expect(await fetchTool({ url: `${base}/text` }, guardedClient)).toEqual({
      text:
        "Refusing to fetch 127.0.0.1: it resolves to 127.0.0.1, a loopback, private or link-local address " +
        "(set MCPTERM_FETCH_ALLOW_PRIVATE=1 in this server's env to allow it).",
      isError: true,
    });
  });
});
