import { createServer } from "node:http";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";
import { listenOnLoopback } from "../support/loopback-http.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** An HTTP server that answers 401 on /mcp and publishes no OAuth metadata; records what it was asked. */
async function refusingServer(): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const http = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(request.url?.startsWith("/mcp") ? 401 : 404, { "content-type": "text/plain" });
    response.end("Unauthorized");
  });
  const origin = await listenOnLoopback(http, closers);
  return { url: `${origin}/mcp`, requests };
}

describe("a server that answers 401 and offers no OAuth metadata", () => {
  it("gets one sentence naming it and the header or sign-in it needs, after the discovery the specs ask for", async () => {
    const server = await refusingServer();
    const dir = await tempDir();
    await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { secure: { url: server.url } } });
    const run = await runCli(trustingConfig(["call", "secure/anything", "{}"]), {
      cwd: dir,
      env: cleanEnv(),
    });

    expect(run.code).toBe(4);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      'mcpterm: Server "secure" could not be started: server "secure" answered 401 (it needs authorization) but offers no way to sign in: it publishes no OAuth metadata. ' +
        'If it takes a token, set it in mcpServers.secure.headers (for example "Authorization": "Bearer ${SECURE_TOKEN}"); if you have a registered client, add "oauth": { "clientId": … }.\n',
    );
    // The request, then RFC 9728's two places and RFC 8414's and OpenID's: once, and no second
    // round through the legacy SSE transport.
    expect(server.requests).toEqual([
      "POST /mcp",
      "GET /.well-known/oauth-protected-resource/mcp",
      "GET /.well-known/oauth-protected-resource",
      "GET /.well-known/oauth-authorization-server",
      "GET /.well-known/openid-configuration",
    ]);
  });

  it("typed with --url, the advice names --header, not keys of a config it is not in", async () => {
    const server = await refusingServer();
    const dir = await tempDir();
    const run = await runCli(trustingConfig(["tools", "--url", server.url]), { cwd: dir, env: cleanEnv() });

    expect(run.code).toBe(4);
    const said = run.stdout + run.stderr;
    expect(said).toContain("offers no way to sign in: it publishes no OAuth metadata.");
    expect(said).toContain('If it takes a token, pass it with --header "Authorization: Bearer …"');
    expect(said).not.toContain("mcpServers.");
  });

  it("with a token sent, says that token was refused, not that one is needed", async () => {
    const server = await refusingServer();
    const dir = await tempDir();
    const typed = await runCli(
      ["tools", "--url", server.url, "--header", "Authorization: Bearer expired-token-1234"],
      {
        cwd: dir,
        env: cleanEnv(),
      },
    );
    expect(typed.code).toBe(4);
    expect(typed.stdout + typed.stderr).toContain(
      `server "${new URL(server.url).host}" refused the Authorization header it was sent (HTTP 401); check the token given with --header (it may be wrong, expired, or lack a scope the server needs).`,
    );
    expect(typed.stdout + typed.stderr).not.toContain("expired-token-1234");

    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { secure: { url: server.url, headers: { Authorization: "Bearer expired-token-1234" } } },
    });
    const configured = await runCli(trustingConfig(["call", "secure/anything", "{}"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(configured.code).toBe(4);
    expect(configured.stderr).toContain(
      "refused the Authorization header it was sent (HTTP 401); check the token in mcpServers.secure.headers",
    );
  });
});
