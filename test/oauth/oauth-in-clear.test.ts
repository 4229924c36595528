import { describe, expect, it } from "vitest";
import { parseConfigDocument } from "../../src/core/config/config-schema.js";
import { ServerAuth } from "../../src/core/oauth/server-auth.js";
import { OAuthStore } from "../../src/core/oauth/token-store.js";
import { tempDir } from "../support/fixtures.js";

/**
 * What the OAuth of a server reached over plain http off this machine may send in clear: its
 * discovery (GETs to the server's own origin), never a registration or a token request, which
 * carry secrets (a registration may be answered with a client secret).
 */
async function inClearFetch(entry: Record<string, unknown>) {
  const config = parseConfigDocument(
    { mcpServers: { plain: entry } },
    { fileLabel: "test", configDir: process.cwd(), env: {} },
  ).servers[0];
  if (!config) throw new Error("no server parsed");
  const auth = ServerAuth.for(config, {
    store: new OAuthStore(await tempDir("mcpterm-oauth-")),
    learnSecret: () => undefined,
    person: () => undefined,
    openUrl: () => Promise.resolve(),
  });
  if (!auth) throw new Error("the entry signs in with no OAuth");
  const sent: string[] = [];
  const fetchFn = auth.fetch((input, init) => {
    sent.push(`${init?.method ?? "GET"} ${String(input)}`);
    return Promise.resolve(
      new Response("{}", { status: 200, headers: { "content-type": "application/json" } }),
    );
  });
  return { fetchFn, sent };
}

const REFUSED = /^refusing to send OAuth requests to mcp\.example\.com over plain http/;

describe("OAuth for a server on plain http off this machine", () => {
  it("lets discovery read the server's own origin, and refuses a registration or a token request there", async () => {
    const { fetchFn, sent } = await inClearFetch({ url: "http://mcp.example.com/mcp" });
    await fetchFn("http://mcp.example.com/.well-known/oauth-authorization-server");
    // The MCP messages themselves go as the entry allows: no sign-in is involved in them.
    await fetchFn("http://mcp.example.com/mcp", {
      method: "POST",
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    await expect(
      fetchFn("http://mcp.example.com/register", { method: "POST", body: '{"client_name":"mcpterm"}' }),
    ).rejects.toThrow(REFUSED);
    await expect(
      fetchFn("http://mcp.example.com/token", { method: "POST", body: "grant_type=authorization_code" }),
    ).rejects.toThrow(REFUSED);
    expect(sent).toEqual([
      "GET http://mcp.example.com/.well-known/oauth-authorization-server",
      "POST http://mcp.example.com/mcp",
    ]);
  });

  it("sends them where the entry allows plain http", async () => {
    const { fetchFn, sent } = await inClearFetch({
      url: "http://mcp.example.com/mcp",
      allowInsecureHttp: true,
    });
    await fetchFn("http://mcp.example.com/register", { method: "POST", body: "{}" });
    expect(sent).toEqual(["POST http://mcp.example.com/register"]);
  });
});
