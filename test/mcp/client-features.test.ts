import { mkdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lazyChatModel } from "../../src/core/llm/lazy-chat-model.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { RootList } from "../../src/core/mcp/roots.js";
import type { ServerLogEntry } from "../../src/core/mcp/server-log.js";
import type { WireFrame } from "../../src/core/mcp/types.js";
import type { ElicitationQuestion } from "../../src/core/person/elicitation.js";
import type { SamplingQuestion } from "../../src/core/person/sampling.js";
import { NOBODY, type Person } from "../../src/core/person/person.js";
import { serverRequestHandlers, type ServerRequestRecord } from "../../src/core/person/server-requests.js";
import { personWho } from "../support/person.js";
import { EVERYTHING_SERVER, serverConfig, tempDir } from "../support/fixtures.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Harness {
  manager: McpManager;
  roots: RootList;
  records: ServerRequestRecord[];
  notices: string[];
  logs: ServerLogEntry[];
  wire: WireFrame[];
  model: ScriptedModelServer;
  asked: { sampling: SamplingQuestion[]; elicitation: ElicitationQuestion[] };
}

/** server-everything over stdio, with a person who answers as `person` says. */
async function everything(
  person: Partial<Pick<Person, "sampling" | "elicitation">> | undefined,
  allowSampling = false,
  timeoutMs = 10_000,
): Promise<Harness> {
  const folder = await tempDir();
  const model = await startScriptedModelServer([{ text: "a sampled answer" }]);
  cleanups.push(() => model.close());
  const records: ServerRequestRecord[] = [];
  const notices: string[] = [];
  const logs: ServerLogEntry[] = [];
  const wire: WireFrame[] = [];
  const asked: Harness["asked"] = { sampling: [], elicitation: [] };
  const answering: Person = person
    ? personWho({
        sampling: async (question, signal) => {
          asked.sampling.push(question);
          return (await person.sampling?.(question, signal)) ?? { approved: false, reason: "no" };
        },
        elicitation: async (question, signal) => {
          asked.elicitation.push(question);
          return (await person.elicitation?.(question, signal)) ?? { action: "decline" };
        },
      })
    : NOBODY;
  const roots = new RootList([folder]);
  const manager = new McpManager(
    [
      serverConfig("everything", {
        command: process.execPath,
        args: [EVERYTHING_SERVER, "stdio"],
        timeoutMs,
      }),
    ],
    {
      parentEnv: process.env,
      roots,
      onLog: (entry) => logs.push(entry),
      onWire: (frame) => wire.push(frame),
      requests: serverRequestHandlers({
        person: () => answering,
        allowSampling,
        model: () => lazyChatModel({ model: "scripted", baseUrl: model.baseUrl, apiKey: "k" }),
        redact: (text) => text.replaceAll("hunter2-secret", "[REDACTED]"),
        record: (record) => records.push(record),
        openUrl: () => Promise.resolve(),
        notify: (text) => notices.push(text),
      }),
    },
  );
  cleanups.push(() => manager.close());
  await manager.start();
  return { manager, roots, records, notices, logs, wire, model, asked };
}

async function toolNames(manager: McpManager, wanted: string): Promise<string[]> {
  // server-everything registers its capability-dependent tools just after initialize.
  for (let tries = 0; tries < 100; tries++) {
    const names = manager.tools().map((tool) => tool.definition.name);
    if (names.includes(wanted)) return names;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return manager.tools().map((tool) => tool.definition.name);
}

function text(result: { content?: unknown }): string {
  return (result.content as Array<{ type: string; text?: string }>)
    .map((block) => block.text ?? "")
    .join("\n");
}

describe("mcpterm as a whole MCP client (server-everything)", () => {
  it("declares roots, sampling and elicitation, so the server offers the tools that need them", async () => {
    const { manager } = await everything(undefined);
    const names = await toolNames(manager, "trigger-elicitation-request");
    expect(names).toEqual(
      expect.arrayContaining([
        "get-roots-list",
        "trigger-sampling-request",
        "trigger-elicitation-request",
        "trigger-url-elicitation",
      ]),
    );
  });

  it("answers roots/list with the working folder, and tells the server when a root is added", async () => {
    const { manager, roots } = await everything(undefined);
    await toolNames(manager, "get-roots-list");
    const first = text(await manager.callTool("everything", "get-roots-list", {}));
    expect(first).toContain(roots.list()[0]?.uri);
    const extra = await tempDir("mcpterm-root-");
    expect(roots.add(extra, process.cwd())).toMatchObject({ ok: true, added: true });
    let listed = "";
    for (let tries = 0; tries < 100 && !listed.includes(extra); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      listed = text(await manager.callTool("everything", "get-roots-list", {}));
    }
    expect(listed).toContain(new URL(`file://${extra}`).href);
  });

  it("shows a sampling request to the person and answers it with the model once approved", async () => {
    const harness = await everything({ sampling: () => Promise.resolve({ approved: true }) });
    await toolNames(harness.manager, "trigger-sampling-request");
    const result = await harness.manager.callTool("everything", "trigger-sampling-request", {
      prompt: "say hi hunter2-secret",
      maxTokens: 50,
    });
    expect(text(result)).toContain("a sampled answer");
    const [question] = harness.asked.sampling;
    expect(question?.server).toBe("everything");
    expect(question?.maxTokens).toBe(50);
    expect(question?.messages[0]?.text).toContain("say hi [REDACTED]");
    expect(question?.systemPrompt).toBe("You are a helpful test server.");
    // The model got the server's messages and its token limit, and no tools.
    const body = harness.model.requests[0]?.body as {
      max_tokens: number;
      tools?: unknown;
      messages: unknown[];
    };
    expect(body.max_tokens).toBe(50);
    expect(body.tools).toBeUndefined();
    expect(harness.records).toEqual([
      expect.objectContaining({ type: "sampling", outcome: "answered", by: "user" }),
    ]);
  });

  it("tells the server a denied sampling request was rejected, and never reaches the model", async () => {
    const harness = await everything({
      sampling: () => Promise.resolve({ approved: false, reason: "the user denied it" }),
    });
    await toolNames(harness.manager, "trigger-sampling-request");
    const result = await harness.manager.callTool("everything", "trigger-sampling-request", { prompt: "x" });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/declined: the user denied it/);
    expect(harness.model.requests).toHaveLength(0);
    expect(harness.records[0]).toMatchObject({ outcome: "refused", by: "user" });
  });

  it("declines sampling with nobody to ask unless --allow-sampling, which answers unasked", async () => {
    const declined = await everything(undefined);
    await toolNames(declined.manager, "trigger-sampling-request");
    const refused = await declined.manager.callTool("everything", "trigger-sampling-request", {
      prompt: "x",
    });
    expect(text(refused)).toMatch(/pass --allow-sampling/);
    expect(declined.notices[0]).toMatch(/Declined a sampling request from server "everything"/);

    const allowed = await everything(undefined, true);
    await toolNames(allowed.manager, "trigger-sampling-request");
    const answered = await allowed.manager.callTool("everything", "trigger-sampling-request", {
      prompt: "x",
    });
    expect(text(answered)).toContain("a sampled answer");
    expect(allowed.records[0]).toMatchObject({ outcome: "answered", by: "flag" });
  });

  it("puts an elicitation form to the person and returns what they typed with the defaults", async () => {
    const harness = await everything({
      elicitation: () => Promise.resolve({ action: "accept", content: { name: "Ada", check: true } }),
    });
    await toolNames(harness.manager, "trigger-elicitation-request");
    const result = await harness.manager.callTool("everything", "trigger-elicitation-request", {});
    const question = harness.asked.elicitation[0];
    expect(question?.mode).toBe("form");
    const fields = question?.mode === "form" ? question.fields : [];
    expect(fields.map((field) => field.name)).toEqual(expect.arrayContaining(["name", "check", "integer"]));
    // Defaults the person left alone were applied, as the spec's applyDefaults says.
    expect(text(result)).toContain("Ada");
    expect(text(result)).toContain("It was a dark and stormy night.");
    expect(harness.records[0]).toMatchObject({ type: "elicitation", action: "accept", mode: "form" });
    expect(JSON.stringify(harness.records)).not.toContain("Ada");
    // The wire frames the trace keeps have the answer's shape, not what was typed.
    const answer = harness.wire.find(
      (frame) => frame.direction === "send" && JSON.stringify(frame.message).includes('"accept"'),
    );
    expect(JSON.stringify(answer?.message)).toContain("withheld from the trace");
    expect(JSON.stringify(harness.wire.filter((frame) => frame.direction === "send"))).not.toContain("Ada");
  });

  it("holds a call's silence limit while the person fills in the form its server asked for", async () => {
    // The call may be silent for 300 ms; the person takes longer than that to answer.
    const harness = await everything(
      {
        elicitation: () =>
          new Promise((resolve) =>
            setTimeout(() => resolve({ action: "accept", content: { name: "Ada" } }), 1500),
          ),
      },
      false,
      300,
    );
    await toolNames(harness.manager, "trigger-elicitation-request");
    const result = await harness.manager.callTool("everything", "trigger-elicitation-request", {});
    expect(text(result)).toContain("Ada");
    expect(harness.asked.elicitation).toHaveLength(1);
  });

  it("declines elicitation when nobody can be asked", async () => {
    const harness = await everything(undefined);
    await toolNames(harness.manager, "trigger-elicitation-request");
    const result = await harness.manager.callTool("everything", "trigger-elicitation-request", {});
    expect(text(result)).toMatch(/decline/i);
    expect(harness.records[0]).toMatchObject({ action: "decline", by: "default" });
  });

  it("lists resources, templates and prompts, keeps the instructions, and sets the log level", async () => {
    const { manager } = await everything(undefined);
    await manager.connection("everything")?.catalogSettled();
    const [server] = manager.servers();
    expect(server?.catalog.problems).toEqual([]);
    expect(server?.catalog.resources.length).toBeGreaterThan(0);
    expect(server?.catalog.resourceTemplates.length).toBeGreaterThan(0);
    expect(server?.catalog.prompts.map((prompt) => prompt.name)).toEqual(
      expect.arrayContaining(["simple-prompt"]),
    );
    expect(server?.instructions).toMatch(/\w/);
    await manager.connection("everything")?.setLogLevel("debug");
    expect(manager.connection("everything")?.logMessages().at(-1)).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} \[info\] mcpterm: log level set to debug$/,
    );
  });
});

describe("roots and a server given its folders on the command line", () => {
  const FILESYSTEM = `${process.cwd()}/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`;

  /** What server-filesystem lists as allowed, and the capabilities its initialize request declared. */
  async function allowed(
    roots: boolean | undefined,
    until: (listed: string) => boolean,
  ): Promise<{ listed: string; declared: Record<string, unknown> }> {
    const project = await tempDir("mcpterm-project-");
    const sent: WireFrame[] = [];
    await mkdir(path.join(project, "workspace"));
    const manager = new McpManager(
      [
        serverConfig("filesystem", {
          command: process.execPath,
          args: [FILESYSTEM, "./workspace"],
          cwd: project,
          ...(roots === undefined ? {} : { roots }),
        }),
      ],
      { parentEnv: process.env, roots: new RootList([project]), onWire: (frame) => sent.push(frame) },
    );
    cleanups.push(() => manager.close());
    await manager.start();
    const initialize = sent.find(
      (frame) => frame.direction === "send" && (frame.message as { method?: string }).method === "initialize",
    )?.message as { params?: { capabilities?: Record<string, unknown> } } | undefined;
    // server-filesystem asks for roots just after initialize: list until it has (or 3 s passed).
    let listed = "";
    for (let tries = 0; tries < 30; tries++) {
      listed = text(await manager.callTool("filesystem", "list_allowed_directories", {}));
      if (until(listed)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { listed, declared: initialize?.params?.capabilities ?? {} };
  }

  it("keeps server-filesystem on ./workspace: roots would widen it to the whole project", async () => {
    // Had it been offered roots, it would have switched to the project within the 3 s.
    const { listed, declared } = await allowed(undefined, (shown) => !shown.includes("workspace"));
    expect(listed).toMatch(/workspace/);
    // Not offered means not declared: a server told the client has roots may ask for them and
    // get "method not found".
    expect(declared).not.toHaveProperty("roots");
    expect(declared).toHaveProperty("sampling");
    expect(
      listed
        .split("\n")
        .filter((line) => line.includes("mcpterm-project-"))
        .every((line) => line.endsWith("workspace")),
    ).toBe(true);
  });

  it('offers the roots when the entry says "roots": true', async () => {
    const { listed, declared } = await allowed(true, (shown) => !shown.includes("workspace"));
    expect(listed).not.toMatch(/workspace/);
    expect(declared).toHaveProperty("roots", { listChanged: true });
  });
});
