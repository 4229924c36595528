import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { ProtocolSetting } from "../../src/core/config/config-types.js";
import { lazyChatModel } from "../../src/core/llm/lazy-chat-model.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { InputRounds } from "../../src/core/mcp/input-rounds.js";
import { ToolCallError } from "../../src/core/mcp/tool-call-error.js";
import type { WireFrame } from "../../src/core/mcp/types.js";
import type { ElicitationAnswer, ElicitationQuestion } from "../../src/core/person/elicitation.js";
import { NOBODY, type Person } from "../../src/core/person/person.js";
import { serverRequestHandlers } from "../../src/core/person/server-requests.js";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { serverConfig } from "../support/fixtures.js";
import { personWho } from "../support/person.js";
import { startScriptedModelServer } from "../support/scripted-model-server.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The two fixtures with the same tools: one speaks only 2026-07-28, the other only 2025-11-25. */
const ERAS = [
  { fixture: "modern-server", era: "modern", version: "2026-07-28" },
  { fixture: "legacy-server", era: "legacy", version: "2025-11-25" },
] as const;

interface Connected {
  manager: McpManager;
  wire: WireFrame[];
  asked: ElicitationQuestion[];
}

async function connect(
  fixture: "modern-server" | "legacy-server",
  options: {
    person?: Person;
    protocol?: ProtocolSetting;
    allowSampling?: boolean;
    env?: Record<string, string>;
  } = {},
): Promise<Connected> {
  const wire: WireFrame[] = [];
  const asked: ElicitationQuestion[] = [];
  const model = await startScriptedModelServer([{ text: "forty-two" }]);
  cleanups.push(() => model.close());
  const person = options.person ?? NOBODY;
  const manager = new McpManager(
    [
      serverConfig("s", {
        command: process.execPath,
        args: [compiledFixture(fixture)],
        env: options.env ?? {},
        ...(options.protocol ? { protocol: options.protocol } : {}),
      }),
    ],
    {
      parentEnv: process.env,
      onWire: (frame) => wire.push(frame),
      requests: serverRequestHandlers({
        person: () => ({
          ...person,
          elicitation: (question, signal) => {
            asked.push(question);
            return person.elicitation(question, signal);
          },
        }),
        allowSampling: options.allowSampling ?? false,
        model: () => lazyChatModel({ model: "scripted", baseUrl: model.baseUrl, apiKey: "k" }),
        redact: (text) => text,
        record: () => undefined,
        openUrl: () => Promise.resolve(),
        notify: () => undefined,
      }),
    },
  );
  cleanups.push(() => manager.close());
  await manager.start();
  return { manager, wire, asked };
}

function text(result: { content?: unknown }): string {
  return (result.content as Array<{ text?: string }>).map((block) => block.text ?? "").join("\n");
}

const sentMethods = (wire: WireFrame[]): string[] =>
  wire.flatMap((frame) =>
    frame.direction === "send" && typeof (frame.message as { method?: unknown }).method === "string"
      ? [(frame.message as { method: string }).method]
      : [],
  );

describe.each(ERAS)("a server that speaks only $version", ({ fixture, era, version }) => {
  it(`connects in the ${era} era, found by asking (server/discover first)`, async () => {
    const { manager, wire } = await connect(fixture);
    expect(manager.servers()[0]).toMatchObject({ status: "connected", era, protocolVersion: version });
    const methods = sentMethods(wire);
    expect(methods[0]).toBe("server/discover");
    expect(methods.includes("initialize")).toBe(era === "legacy");
    expect(text(await manager.callTool("s", "echo", { text: "hi" }))).toBe("hi");
  });

  it("asks the person a server's form and sends the answer back; a decline is the server's to read", async () => {
    const accepting = await connect(fixture, {
      person: personWho({
        elicitation: () => Promise.resolve({ action: "accept", content: { sure: true } }),
      }),
    });
    expect(text(await accepting.manager.callTool("s", "confirm_action", { action: "deploy" }))).toBe(
      "deploy: confirmed",
    );
    expect(accepting.asked.map((question) => question.message)).toEqual(["Really deploy?"]);
    const nobody = await connect(fixture);
    expect(text(await nobody.manager.callTool("s", "confirm_action", { action: "deploy" }))).toBe(
      "deploy: declined",
    );
  });

  it("answers a sampling request with the model once the person approves", async () => {
    const { manager } = await connect(fixture, {
      allowSampling: true,
      person: personWho({ sampling: () => Promise.resolve({ approved: true }) }),
    });
    expect(text(await manager.callTool("s", "ask_model", { question: "the answer?" }))).toBe(
      "the model said: forty-two",
    );
  });
});

describe("2026-07-28 requests", () => {
  it("each carry the revision, the client's capabilities and its name in _meta", async () => {
    const { manager, wire } = await connect("modern-server");
    await manager.callTool("s", "echo", { text: "hi" });
    const requests = wire.filter((frame) => frame.direction === "send" && "id" in (frame.message as object));
    expect(requests.length).toBeGreaterThan(2);
    for (const frame of requests) {
      const meta = (frame.message as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
      expect(meta?.["io.modelcontextprotocol/protocolVersion"]).toBe("2026-07-28");
      const capabilities = meta?.["io.modelcontextprotocol/clientCapabilities"] as object | undefined;
      expect(Object.keys(capabilities ?? {})).toContain("elicitation");
      expect(meta?.["io.modelcontextprotocol/clientInfo"]).toMatchObject({ name: "mcpterm" });
    }
  });
});

describe("a 2025 stdio server that exits on the server/discover probe", () => {
  it("is started again and spoken to in 2025 without asking", async () => {
    const { manager, wire } = await connect("legacy-server", {
      env: { FIXTURE_EXIT_BEFORE_INITIALIZE: "1" },
    });
    expect(manager.servers()[0]).toMatchObject({ status: "connected", era: "legacy" });
    expect(sentMethods(wire).slice(0, 2)).toEqual(["server/discover", "initialize"]);
  });
});

describe('pinning a revision (--protocol, or the entry\'s "protocol")', () => {
  it("speaks 2026-07-28 without a fallback: a 2025 server fails with the reason", async () => {
    const { manager } = await connect("legacy-server", { protocol: "2026-07-28" });
    expect(manager.servers()[0]).toMatchObject({ status: "failed" });
    expect(manager.servers()[0]?.error).toMatch(
      /^the revision could not be settled: the server did not offer pinned protocol version 2026-07-28 .*"protocol", or --protocol, pins 2026-07-28/,
    );
  });

  it("speaks 2025-11-25 without asking: a 2026-only server refuses the initialize", async () => {
    const { manager, wire } = await connect("modern-server", { protocol: "2025-11-25" });
    expect(manager.servers()[0]).toMatchObject({ status: "failed" });
    expect(sentMethods(wire)[0]).toBe("initialize");
  });

  it("pinned to 2026-07-28, connects a 2026 server as auto does", async () => {
    const { manager } = await connect("modern-server", { protocol: "2026-07-28" });
    expect(manager.servers()[0]).toMatchObject({ status: "connected", era: "modern" });
  });
});

/** The 2026-only fixture over Streamable HTTP, on a free port. */
async function modernOverHttp(env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, [compiledFixture("modern-server"), "--http"], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  cleanups.push(() => void child.kill());
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      const url = /listening (\S+)/.exec(chunk)?.[1];
      if (url) resolve(url);
    });
  });
}

describe("a 2026-only server over Streamable HTTP", () => {
  it("connects modern, and a parameter marked x-mcp-header travels as a header too (the server checks it)", async () => {
    const url = await modernOverHttp();
    const manager = new McpManager([serverConfig("h", { transport: "http", url })], {
      parentEnv: process.env,
    });
    cleanups.push(() => manager.close());
    await manager.start();
    expect(manager.servers()[0]).toMatchObject({ status: "connected", era: "modern", transport: "http" });
    expect(text(await manager.callTool("h", "in_region", { region: "eu-west" }))).toBe("region eu-west");
  });
});

describe("a server whose tools/list holds bad definitions", () => {
  const names = (manager: McpManager): string[] =>
    (manager.servers()[0]?.tools ?? []).map((tool) => tool.definition.name).sort();

  it("on stdio: the invalid definition is set aside with why; the others are listed and called", async () => {
    const { manager } = await connect("modern-server", { env: { FIXTURE_BAD_TOOLS: "1" } });
    expect(manager.servers()[0]).toMatchObject({ status: "connected", era: "modern" });
    // x-mcp-header means nothing on stdio: bad_header stays.
    expect(names(manager)).toEqual(["bad_header", "echo"]);
    const refused = manager.servers()[0]?.refusedTools ?? [];
    expect(refused.map((tool) => tool.name)).toEqual(["broken"]);
    expect(refused[0]?.reason).toMatch(/^its definition is not valid MCP \(inputSchema/);
    expect(text(await manager.callTool("s", "echo", { text: "still here" }))).toBe("still here");
  });

  it("over 2026 HTTP: a tool whose x-mcp-header breaks SEP-2243 is not listed either", async () => {
    const url = await modernOverHttp({ FIXTURE_BAD_TOOLS: "1" });
    const manager = new McpManager([serverConfig("h", { transport: "http", url })], {
      parentEnv: process.env,
    });
    cleanups.push(() => manager.close());
    await manager.start();
    expect(names(manager)).toEqual(["echo"]);
    expect(
      manager
        .servers()[0]
        ?.refusedTools.map((tool) => tool.name)
        .sort(),
    ).toEqual(["bad_header", "broken"]);
    expect(manager.servers()[0]?.refusedTools.find((tool) => tool.name === "bad_header")?.reason).toMatch(
      /parameter n has x-mcp-header "N" but is of type "number".*\(SEP-2243\)$/,
    );
    expect(text(await manager.callTool("h", "echo", { text: "still here" }))).toBe("still here");
  });
});

describe("a 401 or 403 on the server/discover probe", () => {
  it.each([401, 403])("HTTP %i is a refusal to sign in to, never a reason to try 2025", async (status) => {
    const methods: string[] = [];
    const http = createServer((request, response) => {
      let body = "";
      request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      request.on("end", () => {
        const method = (JSON.parse(body || "{}") as { method?: string }).method;
        methods.push(request.method === "POST" ? (method ?? "?") : `${request.method} (SSE?)`);
        response.writeHead(status, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
      });
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
    const address = http.address();
    const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`;
    const manager = new McpManager([serverConfig("h", { transport: "http", url })], {
      parentEnv: process.env,
    });
    cleanups.push(() => manager.close());
    await manager.start();
    expect(manager.servers()[0]).toMatchObject({ status: "failed" });
    expect(manager.servers()[0]?.error).toContain(`(HTTP ${status})`);
    expect(methods).toEqual(["server/discover"]);
  });
});

describe("questions a tool asks, on either era, with nobody to answer", () => {
  it.each(ERAS)("sampling on $version is declined with how to allow it", async ({ fixture }) => {
    const { manager } = await connect(fixture);
    // 2025: the server reads the refusal and answers; 2026: no sampling result can say "declined",
    // so the call fails with the sentence (the model sees it as the tool's error).
    const outcome = await manager.callTool("s", "ask_model", { question: "q" }).then(
      (result) => text(result),
      (error: unknown) => String(error),
    );
    expect(outcome).toContain(
      "sampling request declined: nobody is there to answer it; pass --allow-sampling to answer such requests",
    );
  });
});

describe("a person who denies a 2026 server's sampling question", () => {
  it("is asked once: the refusal ends the call, which is not sent again", async () => {
    let asked = 0;
    const { manager, wire } = await connect("modern-server", {
      allowSampling: true,
      person: personWho({
        sampling: () => {
          asked += 1;
          return Promise.resolve({ approved: false, reason: "the user denied it" });
        },
      }),
    });
    const outcome = await manager.callTool("s", "ask_model", { question: "q" }).then(
      () => "answered",
      (error: unknown) =>
        error instanceof ToolCallError ? `${error.failure}: ${error.message}` : String(error),
    );
    // Not "transient": the tool host sends a read-only call that failed in transit again, and
    // the person would be asked the same question twice.
    expect(outcome).toMatch(/^business: .*denied/);
    expect(asked).toBe(1);
    expect(sentMethods(wire).filter((method) => method === "tools/call")).toHaveLength(1);
  });
});

describe("a 2026 tool that asks over two rounds", () => {
  it("gets each answer, and its requestState back byte for byte; the trace has both rounds", async () => {
    const { manager, wire, asked } = await connect("modern-server", {
      person: personWho({
        elicitation: (question) => {
          const answer: ElicitationAnswer = {
            action: "accept",
            content: question.message === "Your name?" ? { name: "Ada" } : { yes: true },
          };
          return Promise.resolve(answer);
        },
      }),
    });
    expect(text(await manager.callTool("s", "two_questions", {}))).toBe("hello Ada (state kept)");
    expect(asked.map((question) => question.message)).toEqual(["Your name?", "Greet Ada?"]);
    const rounds = new InputRounds();
    const records = wire.flatMap((frame) => rounds.frame(frame) ?? []);
    expect(records.map((record) => [record.round, record.asks[0]?.key, record.requestState])).toEqual([
      [1, "name", false],
      [2, "greet", true],
    ]);
    const calls = wire.filter(
      (frame) => frame.direction === "send" && (frame.message as { method?: string }).method === "tools/call",
    );
    const ids = calls.map((frame) => (frame.message as { id: unknown }).id);
    expect(new Set(ids).size).toBe(3);
  });
});
