import { randomUUID } from "node:crypto";
import { syncRecordRedaction } from "../../src/core/policy/redacted-json.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeToolHost } from "../../src/core/agent/knowledge-tool-host.js";
import { McpToolHost } from "../../src/core/agent/mcp-tool-host.js";
import { CompositeToolHost } from "../../src/core/agent/composite-tool-host.js";
import type { CommandContext, CommandResult } from "../../src/core/commands/command-types.js";
import { SLASH_COMMANDS, parseSlashInput, runSlashCommand } from "../../src/core/commands/slash-commands.js";
import { ConfigError } from "../../src/core/errors.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { openKnowledgeBase, type KnowledgeBase } from "../../src/core/kb/index.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { fixtureLaunch, serverConfig, tempDir } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { Session } from "../../src/core/agent/session.js";
import { createOpenAiChatModel } from "../../src/core/llm/openai-chat-model.js";
import { TraceRecorder } from "../../src/core/trace/trace-recorder.js";
import { startScriptedModelServer } from "../support/scripted-model-server.js";
import { personWho } from "../support/person.js";
import path from "node:path";

const marker = randomUUID();
let manager: McpManager;
let kb: KnowledgeBase;
let model: string | undefined = "gpt-test";
let cleared = 0;
let turnRunning = false;
let context: CommandContext;
let traceFile: string | undefined;

beforeAll(async () => {
  manager = new McpManager(
    [
      serverConfig("fixture", fixtureLaunch(marker)),
      serverConfig("broken", { command: "/nonexistent/mcp-server" }),
    ],
    { parentEnv: process.env, shutdownGraceMs: 200 },
  );
  await manager.start();
  const dir = await tempDir();
  await mkdir(path.join(dir, "kb"));
  await writeFile(
    path.join(dir, "kb", "deploy.md"),
    "# Deploy\n\n## Rollback\n\nRun deploy rollback to undo a release.\n",
  );
  kb = await openKnowledgeBase({ dir: path.join(dir, "kb"), indexDir: path.join(dir, "index") });
  await kb.refresh();
  const tools = new CompositeToolHost([new KnowledgeToolHost(kb), new McpToolHost(manager)]);
  context = {
    manager,
    redactor: new SecretRedactor(),
    tools: () => tools.list(),
    knowledge: () => ({ state: "ready", kb }),
    commands: SLASH_COMMANDS,
    clearConversation: () => {
      cleared += 1;
      return !turnRunning;
    },
    traceFile: () => traceFile,
    model: {
      current: () => model,
      problem: () => (model ? undefined : "No model is set."),
      switchTo: (name) => {
        if (name === "bad") throw new ConfigError("bad model");
        model = name;
      },
    },
  };
});

afterAll(async () => {
  await manager.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

function run(input: string): Promise<CommandResult> {
  return runSlashCommand(context, input);
}

function text(result: CommandResult): string {
  switch (result.kind) {
    case "text":
      return result.text;
    case "error":
      return result.message;
    case "table":
      return [
        result.title,
        result.columns.join(" | "),
        ...result.rows.map((row) => row.join(" | ")),
        result.note ?? "",
      ].join("\n");
  }
}

describe("slash commands against a real McpManager", () => {
  it.each([
    ["/help", "table", /\/tools \[server\] \[tool\] \| servers with status/],
    ["/tools", "table", /fixture \| connected \| write_note \| dangerous \| destructiveHint/],
    ["/tools", "table", /broken \| failed \| {2}\| {2}\| .*nonexistent/],
    ["/tools", "table", /mcpterm \| built-in \| search_knowledge_base \| read_only/],
    ["/tools fixture", "table", /fixture \| connected \| echo \| read_only/],
    ["/tools nope", "error", /no server named "nope"/],
    ["/tools fixture echo", "text", /"required": \[\s*"text"\s*\]/],
    ["/tools fixture missing", "error", /has no tool "missing"/],
    // The same lint as `mcpterm tools` (the fixture's tools lack property descriptions).
    [
      "/tools fixture",
      "table",
      /lint: \d+ error\(s\), [1-9]\d* warning\(s\): mcpterm tools lists each finding\./,
    ],
    // Updated at a local minute, as /resume lists sessions, not an ISO timestamp.
    ["/kb", "table", /\| 1 \| \d+ \| [\d.]+ [KM]?B \| \d{4}-\d\d-\d\d \d\d:\d\d$/m],
    [
      "/kb search rollback",
      "table",
      /1 \| deploy\.md:\d+-\d+ \| (strong|good|weak) \d+% \| rollback \| .*rollback/,
    ],
    ["/kb search zzzqqq", "text", /No passages match/],
    [
      "/kb reindex",
      "text",
      /Reindexed in \d+ ms: 0 added, 0 updated, 0 removed, 1 unchanged \(nothing changed\)\./,
    ],
    ["/kb frobnicate", "error", /Unknown \/kb subcommand/],
    ["/trace", "error", /This session is not recording a trace/],
    [
      "/mcp",
      "table",
      /fixture \| connected \| stdio \| pid \d+ \| \d{4}-\d\d-\d\d \(modern\) \| fixture 1\.0\.0 \| 10 \| 0 \| 0 \| \d+ ms \| $/m,
    ],
    ["/mcp", "table", /broken \| failed \| stdio/],
    ["/mcp logs fixture", "text", /stderr \(\d+ lines?\)\n {2}fixture: ready/],
    ["/mcp logs", "error", /Usage: \/mcp logs <server>/],
    ["/mcp restart nope", "error", /no server named "nope"/],
    // The one reason that holds, not three that might.
    [
      "/mcp login fixture",
      "error",
      /^Server "fixture" is a local \(stdio\) server: there is nothing to sign in to;[^,]*$/,
    ],
    ["/model", "text", /Model: gpt-test/],
    ["/model bad", "error", /bad model/],
    ["/nope", "error", /^Unknown command \/nope; type \/help for the list\.$/],
    ["/modle", "error", /^Unknown command \/modle; did you mean \/model\?/],
    ["/STAT", "error", /did you mean \/stats\?/],
    [`/${"a".repeat(20_000)}`, "error", /^Unknown command \/a{40}…; type \/help for the list\.$/],
    [
      "/read fixture note://a $(rm -rf x)",
      "error",
      /^\/read takes one uri, got 4 words after the server; a uri has no spaces/,
    ],
  ] as Array<[string, CommandResult["kind"], RegExp]>)("%s -> %s", async (input, kind, expected) => {
    const result = await run(input);
    expect(result.kind, text(result)).toBe(kind);
    expect(text(result)).toMatch(expected);
  });

  it("/trace shows the recorded turn as a tree, the wire frames, and exports the file", async () => {
    const dir = await tempDir();
    const recorder = TraceRecorder.open({
      dir,
      redaction: syncRecordRedaction((line) => line),
      model: "scripted",
      servers: ["fixture"],
      cwd: dir,
    });
    const server = await startScriptedModelServer([
      {
        toolCalls: [
          { name: "fixture__echo", arguments: '{"text":"traced"}' },
          { name: "fixture__big", arguments: '{"chars":3000}' },
        ],
      },
      { text: "All done." },
    ]);
    const wired = new McpManager([serverConfig("fixture", fixtureLaunch(marker))], {
      parentEnv: process.env,
      onWire: recorder.wire,
    });
    try {
      await wired.start();
      const session = new Session({
        model: createOpenAiChatModel({ model: "scripted", baseUrl: server.baseUrl, apiKey: "k" }),
        tools: new McpToolHost(wired, { onRawResult: recorder.rawResult }),
        approval: { project: ["read_only"], settings: [], flagged: [], interactive: true },
        person: () => personWho({ approveCall: () => Promise.reject(new Error("no")) }),
        maxSteps: 5,
        cwd: dir,
        sink: recorder,
      });
      const events = [];
      for await (const event of session.run("echo it")) {
        events.push(event.type);
      }
      expect(events.at(-1)).toBe("turn_end");
    } finally {
      await wired.close();
      await server.close();
      recorder.close();
    }
    traceFile = recorder.file;
    expect(text(await run("/trace"))).toMatch(/echo it[\s\S]*fixture\/echo[\s\S]*All done\./);
    expect(text(await run("/trace 1"))).toMatch(/fixture\/echo/);
    expect(text(await run("/trace 2"))).toMatch(/There is no turn 2; this trace has turns 1-1/);
    const wire = text(await run("/trace wire fixture"));
    expect(wire).toMatch(/tools\/call/);
    // The big result is summarized by its start and length, and --full shows it whole.
    expect(wire).toMatch(/"text":"x+… ‹3000 chars›"/);
    expect(wire).not.toContain("x".repeat(300));
    expect(wire).toMatch(/\(1 long string summarized; --full shows them whole\)\n$/);
    const full = text(await run("/trace wire fixture --full"));
    expect(full).toContain("x".repeat(3000));
    expect(full).not.toContain("summarized");
    const copy = path.join(dir, "copy.jsonl");
    expect(text(await run(`/trace export ${copy}`))).toMatch(/Trace copied to/);
    expect(await readFile(copy, "utf8")).toBe(await readFile(recorder.file, "utf8"));
    // Never over a file that is there: a person's notes stay theirs.
    const notes = path.join(dir, "notes.txt");
    await writeFile(notes, "my precious notes\n");
    const over = await run(`/trace export ${notes}`);
    expect(over.kind).toBe("error");
    expect(text(over)).toBe(
      `${notes} already exists; /trace export does not replace a file, so give a new name.`,
    );
    expect(await readFile(notes, "utf8")).toBe("my precious notes\n");
    // A name with spaces, in quotes; unquoted, it is refused rather than cut at the space.
    const spaced = path.join(dir, "my trace.jsonl");
    expect(text(await run(`/trace export "${spaced}"`))).toBe(
      `Trace copied to ${spaced} (from ${recorder.file}).`,
    );
    expect(await readFile(spaced, "utf8")).toBe(await readFile(recorder.file, "utf8"));
    const unquoted = await run(`/trace export ${path.join(dir, "a second.jsonl")}`);
    expect(unquoted.kind).toBe("error");
    expect(text(unquoted)).toBe(
      'Usage: /trace export <file> (a name with spaces goes in quotes: "my trace.jsonl")',
    );
    expect(existsSync(path.join(dir, "a"))).toBe(false);
    const nowhere = await run(`/trace export ${path.join(dir, "no-such-folder", "t.jsonl")}`);
    expect(text(nowhere)).toMatch(/^Cannot write \S+t\.jsonl: its folder does not exist\.$/);
    // A folder is named as one, as `mcpterm trace --otlp` names it.
    expect(text(await run(`/trace export ${dir}`))).toBe(
      `Cannot write ${dir}: it is a folder; give /trace export a file name.`,
    );
    traceFile = undefined;
  });

  it("/mcp restart brings a server back with its tools", async () => {
    const before = manager.servers().find((server) => server.name === "fixture")?.pid;
    const result = await run("/mcp restart fixture");
    expect(text(result)).toMatch(/Restarted "fixture": connected, 10 tools\./);
    expect(manager.servers().find((server) => server.name === "fixture")?.pid).not.toBe(before);
  });

  it("/model <name> switches, /clear clears, /exit asks to exit", async () => {
    expect(text(await run("/model other-model"))).toMatch(/Model: other-model/);
    expect(model).toBe("other-model");
    expect(await run("/clear")).toMatchObject({ kind: "text", after: "clear" });
    expect(cleared).toBe(1);
    turnRunning = true;
    expect(await run("/clear")).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/still running/) as string,
    });
    turnRunning = false;
    expect(await run("/exit")).toMatchObject({ kind: "text", after: "exit" });
  });

  it("/kb says so while the knowledge base is loading or off", async () => {
    const loading = await runSlashCommand({ ...context, knowledge: () => ({ state: "loading" }) }, "/kb");
    expect(loading).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/still being indexed/) as string,
    });
    const off = await runSlashCommand(
      { ...context, knowledge: () => ({ state: "off", reason: "kb is off" }) },
      "/kb",
    );
    expect(off).toEqual({ kind: "error", message: "kb is off" });
  });
});

describe("parseSlashInput", () => {
  it.each([
    ["/tools fixture echo", { name: "tools", args: ["fixture", "echo"], typed: "fixture echo" }],
    ["  /KB  search  a b ", { name: "kb", args: ["search", "a", "b"], typed: "search  a b" }],
    [
      '/trace export "my trace.jsonl"',
      { name: "trace", args: ["export", "my trace.jsonl"], typed: 'export "my trace.jsonl"' },
    ],
    ["/roots add 'a b' c", { name: "roots", args: ["add", "a b", "c"], typed: "add 'a b' c" }],
    // A quote never closed, or not at a word's start, is a character.
    ["/kb search what's new", { name: "kb", args: ["search", "what's", "new"], typed: "search what's new" }],
    [
      "/roots add /home/me/o'neil's",
      { name: "roots", args: ["add", "/home/me/o'neil's"], typed: "add /home/me/o'neil's" },
    ],
    [
      "/read fixture mem://o'neil/o'brien",
      { name: "read", args: ["fixture", "mem://o'neil/o'brien"], typed: "fixture mem://o'neil/o'brien" },
    ],
    ['/x key="v w"', { name: "x", args: ['key="v', 'w"'], typed: 'key="v w"' }],
    [
      '/x \'it\'s here\' "a \\"b\\" c"',
      { name: "x", args: ["it's here", 'a "b" c'], typed: '\'it\'s here\' "a \\"b\\" c"' },
    ],
    ["/x 'open", { name: "x", args: ["'open"], typed: "'open" }],
  ])("%j", (input, expected) => {
    expect(parseSlashInput(input)).toEqual(expected);
  });
});
