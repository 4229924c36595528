import { createServer } from "node:http";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";
import { listenOnLoopback } from "../support/loopback-http.js";

/**
 * A remote server's URL that holds a user name and password (`https://user:pass@host/mcp`), as
 * curl and most HTTP tools take one: fetch refuses such a URL outright, so mcpterm sends them as
 * HTTP Basic authentication, to a real Streamable HTTP server that refuses anything else.
 */
const USER = "al@ice";
const PASSWORD = "pa:ss-w0rd-Kx93";
const IN_URL = `${encodeURIComponent(USER)}:${encodeURIComponent(PASSWORD)}`;
const EXPECTED = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A stateless Streamable HTTP server with one tool, answering 401 to any other Authorization. */
async function basicAuthServer(expected = EXPECTED): Promise<{ origin: string; seen: string[] }> {
  const seen: string[] = [];
  const http = createServer((request, response) => {
    seen.push(request.headers.authorization ?? "");
    if (request.headers.authorization !== expected) {
      response.writeHead(401, { "www-authenticate": 'Basic realm="mcp"' }).end();
      return;
    }
    const server = new McpServer({ name: "guarded", version: "1.0.0" });
    server.registerTool("shout", { inputSchema: { text: z.string() } }, ({ text }) => ({
      content: [{ type: "text", text: text.toUpperCase() }],
    }));
    // A careless server that tells who called it, password and all.
    const caller = Buffer.from((request.headers.authorization ?? "").slice(6), "base64").toString("utf8");
    server.registerTool("whoami", { annotations: { readOnlyHint: true } }, () => ({
      content: [
        { type: "text", text: `you are ${caller}; password ${caller.slice(caller.indexOf(":") + 1)}` },
      ],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => void transport.close());
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  const origin = await listenOnLoopback(http, closers);
  return { origin: new URL(origin).host, seen };
}

async function project(entry: Record<string, unknown>): Promise<string> {
  const dir = await tempDir("mcpterm-url-credentials-");
  await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { guarded: entry } });
  return dir;
}

describe("a remote server's URL with a user name and password in it", () => {
  it("sends them as Basic authentication, and never prints the password", async () => {
    const { origin, seen } = await basicAuthServer();
    const dir = await project({ url: `http://${IN_URL}@${origin}/mcp` });
    const run = await runCli(trustingConfig(["tools", "--json"]), { cwd: dir, env: cleanEnv() });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      servers: [{ name: "guarded", tools: [{ name: "shout" }, { name: "whoami" }] }],
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((value) => value === EXPECTED)).toBe(true);

    const call = await runCli(trustingConfig(["call", "guarded/shout", '{"text":"hi"}', "--yes"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(call.stdout.trim()).toBe("HI");
    const whoami = await runCli(trustingConfig(["call", "guarded/whoami"]), { cwd: dir, env: cleanEnv() });
    expect(whoami.stdout.trim()).toBe("you are [REDACTED]; password [REDACTED]");
    const doctor = await runCli(trustingConfig(["doctor", "--no-calls"]), { cwd: dir, env: cleanEnv() });
    expect(doctor.stdout).toContain(`doctor: guarded (http://${origin}/mcp)`);
    for (const output of [run.stdout, call.stdout, call.stderr, whoami.stdout, doctor.stdout, doctor.stderr])
      expect(output).not.toContain("w0rd");
  });

  it("takes a user name and password from the environment as they are, whatever characters they hold", async () => {
    // Unencoded, each of these would move the URL's host, path, query or fragment, or decode wrong.
    const user = "ops@example.com";
    const password = "p@ss/w0rd#1?x=%41:z";
    const { origin, seen } = await basicAuthServer(
      `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`,
    );
    const dir = await project({ url: `http://\${MCP_USER}:\${MCP_PASSWORD}@${origin}/mcp` });
    const env = cleanEnv({ MCP_USER: user, MCP_PASSWORD: password });
    // Values from the environment going to a URL the project's config names: a deliberate yes.
    const run = await runCli(
      trustingConfig(["call", "guarded/shout", '{"text":"hi"}', "--yes", "--trust-config"]),
      {
        cwd: dir,
        env,
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("HI");
    expect(seen.length).toBeGreaterThan(0);
    const doctor = await runCli(trustingConfig(["doctor", "--no-calls", "--trust-config"]), {
      cwd: dir,
      env,
    });
    expect(doctor.stdout).toContain(`doctor: guarded (http://${origin}/mcp)`);
    for (const output of [run.stdout, doctor.stdout, doctor.stderr]) expect(output).not.toContain("w0rd");
  });

  it("never prints a value from the environment that its path or query carries, whatever its name", async () => {
    const { origin } = await basicAuthServer();
    const dir = await project({ url: `http://${origin}/mcp/\${ZAP_PATH}/sse?k=\${MYKEY}` });
    const env = cleanEnv({ MYKEY: "qqVALUEqq98765", ZAP_PATH: "zapSECRETpath123" });
    for (const args of [["tools"], ["doctor", "--no-calls"]]) {
      const run = await runCli(trustingConfig([...args, "--trust-config"]), { cwd: dir, env });
      expect(run.stdout + run.stderr).toContain(`http://${origin}/mcp/[REDACTED]/sse?k=[REDACTED]`);
      expect(run.stdout + run.stderr).not.toMatch(/qqVALUEqq98765|zapSECRETpath123/);
    }
  });

  it("works the same for a URL typed with --url", async () => {
    const { origin, seen } = await basicAuthServer();
    const dir = await tempDir("mcpterm-url-credentials-typed-");
    const run = await runCli(
      trustingConfig(["call", "--url", `http://${IN_URL}@${origin}/mcp`, "shout", '{"text":"ok"}', "--yes"]),
      {
        cwd: dir,
        env: cleanEnv(),
      },
    );
    expect(run.stdout.trim()).toBe("OK");
    expect(run.code).toBe(0);
    expect(seen.at(-1)).toBe(EXPECTED);
  });

  it("refused, names the URL's user name and password, not a header it never had", async () => {
    const { origin } = await basicAuthServer();
    const dir = await tempDir("mcpterm-url-credentials-wrong-");
    const url = `http://ops:wrong-pass-1@${origin}/mcp`;
    const typed = await runCli(trustingConfig(["call", "--url", url, "shout", '{"text":"x"}', "--yes"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(typed.code).toBe(4);
    expect(typed.stderr).toContain(
      "refused the user name and password in its URL, sent as Basic authorization (HTTP 401); check them",
    );
    expect(typed.stderr).not.toMatch(/--header|wrong-pass-1/);
    const configured = await project({ url });
    const run = await runCli(trustingConfig(["tools"]), { cwd: configured, env: cleanEnv() });
    expect(run.stdout + run.stderr).toContain("refused the user name and password in its URL");
    expect(run.stdout + run.stderr).not.toMatch(/headers|wrong-pass-1/);
  });

  it("with an Authorization header as well, sends neither and says to keep one", async () => {
    const { origin, seen } = await basicAuthServer();
    const dir = await project({
      url: `http://${IN_URL}@${origin}/mcp`,
      headers: { Authorization: "Bearer another-token-entirely" },
    });
    const run = await runCli(trustingConfig(["tools"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(
      "mcpServers.guarded.url in mcp.config.json holds a user name and password, and mcpServers.guarded has an Authorization header too; keep one of the two.",
    );
    expect(seen).toEqual([]);
    expect(run.stdout + run.stderr).not.toContain("w0rd");
  });
});
