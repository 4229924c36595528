import { randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { installNotesServer, notesCommand } from "../support/notes-server.js";
import { processesMatching, waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli, type CliRun, trustingConfig } from "../support/run-cli.js";
import { slowInitializeWarnings } from "../support/slow-initialize.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/**
 * Each bug of the notes fixture (test/fixtures/author-server.ts), switched on alone, is named in
 * one step, with its cause, by the command an author would reach for, through the real binary.
 */
const marker = randomUUID();
let dir: string;
let script: string;
const models: ScriptedModelServer[] = [];

beforeAll(async () => {
  dir = await tempDir();
  script = await installNotesServer(dir);
});

afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
  for (const pid of processesMatching(marker)) process.kill(pid, "SIGKILL");
});

/** `mcpterm <args> -- env AUTHOR_BUG=<bugs> node notes.js`: the server being written, typed. */
const withBugs = (args: string[], bugs: string[], env: string[] = []) =>
  runCli(trustingConfig([...args, "--", ...notesCommand(script, marker, bugs, env)]), {
    cwd: dir,
    env: cleanEnv(),
  });

const THROWN_AT = String.raw`\(at file:\/\/\/\S+\/notes\.js:\d+:\d+\)`;
const TYPE_ERROR = String.raw`TypeError: Cannot read properties of undefined \(reading 'title'\)`;

/** A calls file as an author writes one from the healthy server's answers. */
async function callsFile(lines: object[]): Promise<string> {
  const file = path.join(dir, `calls-${randomUUID()}.jsonl`);
  await writeFile(file, lines.map((line) => JSON.stringify(line)).join("\n"));
  return file;
}

const SEARCH_CALL = {
  kind: "tool",
  server: "notes",
  tool: "search_notes",
  arguments: { query: "roll" },
  tier: "read_only",
  durationMs: 4,
  result: { content: [{ type: "text", text: "1: Rollback" }] },
};

describe("a crash in a handler", () => {
  it("mcpterm call says the exit code and the error line with where it was thrown (exit 4)", async () => {
    const run = await withBugs(["call", "get_note", "id=1"], ["crash-in-handler"]);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(
      new RegExp(String.raw`^mcpterm: server "notes" exited \(code 1\): ${TYPE_ERROR} ${THROWN_AT}\n$`),
    );
    expect(run.stdout).toBe("");
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("with --json, says the same as data on stdout for CI, still exit 4", async () => {
    const run = await withBugs(["call", "get_note", "id=1", "--json"], ["crash-in-handler"]);
    expect(run.code).toBe(4);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(report).toEqual({
      server: "notes",
      tool: "get_note",
      error: expect.stringMatching(
        new RegExp(String.raw`^server "notes" exited \(code 1\): ${TYPE_ERROR}`),
      ) as string,
      failure: "transient",
      serverExited: {
        code: 1,
        signal: null,
        errorLine: "TypeError: Cannot read properties of undefined (reading 'title')",
        location: expect.stringMatching(/^file:\/\/\/\S+\/notes\.js:\d+:\d+$/) as string,
        cause: null,
      },
    });
    expect(run.stderr).toMatch(/^mcpterm: server "notes" exited \(code 1\)/);
  });

  it("with --debug, every line of the server's stderr as it came, stack and all", async () => {
    const run = await withBugs(["call", "get_note", "id=1", "--debug"], ["crash-in-handler"]);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain("[notes] notes: reading note 1\n");
    expect(run.stderr).toMatch(new RegExp(String.raw`^\[notes\] ${TYPE_ERROR}$`, "m"));
    expect(run.stderr).toMatch(
      /^\[notes\] {5}at Immediate\.<anonymous> \(file:\/\/\/\S+\/notes\.js:\d+:\d+\)$/m,
    );
    expect(run.stderr).toMatch(/^\[notes\] Node\.js v\d+/m);
  });
});

describe("a server that exits leaving a helper that holds its pipes", () => {
  it("mcpterm call says the exit and its stderr, not a timeout, and stops the helper (exit 4)", async () => {
    const run = await withBugs(["call", "list_notes"], ["helper-keeps-pipes"]);
    expect(run.stderr).toBe(
      'mcpterm: server "notes" exited (code 3): notes: the indexer failed to start; giving up\n',
    );
    expect(run.code).toBe(4);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });
});

describe("a call that never went out, with --json", () => {
  /** The one object a script reads, and the sentence on stderr it repeats. */
  async function notCalled(
    args: string[],
    bugs: string[] = [],
  ): Promise<{ code: number | null; report: object }> {
    const run = await withBugs([...args, "--json"], bugs);
    const report = JSON.parse(run.stdout) as { error: string };
    expect(run.stderr).toBe(`mcpterm: ${report.error}\n`);
    return { code: run.code, report };
  }

  it.each([
    [
      "a tool the server does not have",
      ["call", "get_notes", "id=1"],
      2,
      "invalid_args",
      /^Server "notes" has no tool "get_notes"/,
    ],
    [
      "arguments the schema refuses",
      ["call", "get_note", "id=one"],
      2,
      "invalid_args",
      /^The arguments do not match the input schema of notes\/get_note/,
    ],
    [
      "a dangerous tool without --yes",
      ["call", "delete_note", "id=1"],
      3,
      "permission",
      /^Not run: notes\/delete_note is dangerous/,
    ],
  ])("%s: one object on stdout, the same exit code", async (_name, args, code, failure, error) => {
    const run = await notCalled(args);
    expect(run.code).toBe(code);
    expect(run.report).toEqual({
      server: "notes",
      tool: args[1],
      error: expect.stringMatching(error) as string,
      failure,
    });
  });

  it("a server that dies as it starts: the start's failure, exit 4", async () => {
    const run = await notCalled(["call", "get_note", "id=1"], ["crash-at-start"]);
    expect(run.code).toBe(4);
    expect(run.report).toEqual({
      server: "notes",
      tool: "get_note",
      error: expect.stringMatching(
        /^Server "notes" could not be started: the server process exited \(code 1\)/,
      ) as string,
      failure: "transient",
    });
  });
});

describe("a JSON-RPC error answer", () => {
  const LOCKED = "notes: DELETE failed: SQLITE_BUSY: database is locked | at Statement.run (store.js:42:9)";

  it("mcpterm call gives its code and data, and what the server wrote to stderr meanwhile (exit 1)", async () => {
    const run = await withBugs(["call", "delete_note", "id=1", "--yes"], ["error-answer"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `mcpterm: Internal error (JSON-RPC error -32603, data: {"sqlite":"SQLITE_BUSY","table":"notes"}); stderr during the request: ${LOCKED}\n`,
    );
    // Start-up's own lines ("notes: starting") are not the request's.
    expect(run.stderr).not.toContain("notes: starting");
  });

  it("with --json, the same as data: the error as the server sent it and the stderr lines", async () => {
    const run = await withBugs(["call", "delete_note", "id=1", "--yes", "--json"], ["error-answer"]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      server: "notes",
      tool: "delete_note",
      error: expect.stringContaining("Internal error (JSON-RPC error -32603") as string,
      failure: "business",
      jsonRpcError: { code: -32603, data: { sqlite: "SQLITE_BUSY", table: "notes" } },
      stderr: [
        "notes: DELETE failed: SQLITE_BUSY: database is locked",
        "    at Statement.run (store.js:42:9)",
      ],
    });
  });
});

describe("a crash in a resource read", () => {
  it("mcpterm read says the exit code and the error line too, as every command does (exit 4)", async () => {
    const run = await withBugs(["read", "notes://1"], ["crash-in-read"]);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(
      new RegExp(
        String.raw`^mcpterm: server "notes" exited \(code 1\): RangeError: note notes://1 is out of range ${THROWN_AT}\n$`,
      ),
    );
    expect(run.stdout).toBe("");
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });
});

describe("a server that shuts its stdin and dies as it starts", () => {
  it("mcpterm tools says how it ended and why, not the broken pipe of the first message (exit 4)", async () => {
    // A shell shuts its stdin at once, before mcpterm writes initialize (EPIPE), then dies.
    const dying = "exec 0<&-; echo 'fatal: the config file is missing' >&2; sleep 0.3; exit 3";
    const run = await runCli(trustingConfig(["tools", "--", "sh", "-c", dying]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.code).toBe(4);
    expect(run.stdout).not.toContain("EPIPE");
    expect(run.stdout).toMatch(
      /failed — the server process exited \(code 3\) before it was connected: fatal: the config file is missing$/m,
    );
  });

  it("is told by its exit while a child it left behind still holds its pipes", async () => {
    // The shell's pipes stay open after it exits (the child has them), so its exit is seen on
    // the process's own exit, not when the pipes close; the child is stopped with the group.
    const leaving = `exec 0<&-; echo 'fatal: the config file is missing' >&2; sh -c 'sleep 30' ${marker} & exit 3`;
    const run = await runCli(trustingConfig(["tools", "--", "sh", "-c", leaving]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.code).toBe(4);
    expect(run.stdout).toMatch(
      /failed — the server process exited \(code 3\) before it was connected: fatal: the config file is missing$/m,
    );
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });
});

/**
 * `mcpterm tools`, pinned to 2026-07-28, on a 2025 server that answers every request "Method not
 * found" (so refuses server/discover), with `ending` saying how its process ends.
 */
function toolsOfRefusing(ending: string): ReturnType<typeof runCli> {
  const refusing = [
    ending,
    "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {",
    "const m = JSON.parse(line); if (m.id === undefined) return;",
    "process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } }) + '\\n'); });",
  ].join(" ");
  return runCli(
    trustingConfig(["tools", "--protocol", "2026-07-28", "--", process.execPath, "-e", refusing]),
    {
      cwd: dir,
      env: cleanEnv(),
    },
  );
}

describe("a server mcpterm stopped itself once connecting failed", () => {
  it("is told by why connecting failed, not by the SIGTERM mcpterm sent it", async () => {
    // A 2025 server that refuses server/discover, outlives its stdin, and ends on SIGTERM (143).
    const run = await toolsOfRefusing(
      "process.on('SIGTERM', () => process.exit(143)); setInterval(() => {}, 1000);",
    );
    expect(run.code).toBe(4);
    expect(run.stdout).not.toMatch(/SIGTERM|code 143/);
    expect(run.stdout).toMatch(/failed — the revision could not be settled: .*pins 2026-07-28/);
  });

  it("is told by why connecting failed when closing its stdin made it exit 1", async () => {
    // The same refusal from a server that exits 1 as its stdin ends: mcpterm closed it.
    const run = await toolsOfRefusing("process.stdin.on('end', () => process.exit(1));");
    expect(run.code).toBe(4);
    expect(run.stdout).not.toMatch(/code 1\b/);
    expect(run.stdout).toMatch(/failed — the revision could not be settled: .*pins 2026-07-28/);
  });

  it("says a live server shut its stdin, which no exit explains", async () => {
    // It reads the 2026 probe, shuts its stdin, then refuses the probe: mcpterm's initialize (a
    // 2025 server is spoken to next) meets a closed pipe, and the process lives on.
    const shutting = [
      "read line; exec 0<&-;",
      `id=$(printf %s "$line" | sed -n 's/.*"id":\\("[^"]*"\\|[0-9]*\\)[,}].*/\\1/p');`,
      `printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\\n' "$id";`,
      "sleep 5",
    ].join(" ");
    const run = await runCli(trustingConfig(["tools", "--", "sh", "-c", shutting]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.code).toBe(4);
    expect(run.stdout).toMatch(
      /failed — the server process closed its stdin, so nothing could be sent to it/,
    );
  });
});

describe("a crash at start behind a long stack", () => {
  it("mcpterm tools shows the SyntaxError line that the tail of stderr no longer holds (exit 4)", async () => {
    const run = await withBugs(["tools", "--debug"], ["crash-at-start"]);
    expect(run.code).toBe(4);
    expect(run.stdout).toMatch(
      new RegExp(
        String.raw`^notes: failed — the server process exited \(code 1\) before it was connected: SyntaxError: Expected property name or '\}' in JSON at position 2 .*${THROWN_AT}$`,
        "m",
      ),
    );
    // What mcpterm used to keep, the last lines of stderr, are frames and Node's version.
    const stderr = run.stderr.split("\n").filter((line) => line.startsWith("[notes] "));
    expect(stderr.length).toBeGreaterThan(10);
    expect(stderr.slice(-5).join("\n")).not.toContain("SyntaxError");
  });
});

describe("schemas an author got wrong", () => {
  it("mcpterm tools exits 1 for an invalid schema, naming each mistake at its JSON path", async () => {
    const run = await withBugs(["tools"], ["invalid-schema"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '  ✗ error unknown-type  search_notes $.inputSchema.properties.limit.type: "int" is not a JSON Schema type; use "integer" (the types are string, number, integer, boolean, object, array, null)\n',
    );
    expect(run.stdout).toContain(
      '  ✗ error invalid-schema  search_notes $.inputSchema.properties.limit.minimum: "minimum" must be a number, got "1"\n',
    );
    const slow = slowInitializeWarnings(run.stdout);
    expect(run.stdout).toMatch(new RegExp(`^lint: 2 error\\(s\\), ${slow} warning\\(s\\)$`, "m"));
  });

  it("mcpterm tools exits 1 for a required entry that names no property, with the one meant", async () => {
    const run = await withBugs(["tools", "--json"], ["required-typo"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { lint: Array<Record<string, unknown>> };
    // A loaded machine can make any fixture start slowly (slow-initialize): not counted here.
    expect(report.lint.filter((finding) => finding.code !== "slow-initialize")).toEqual([
      {
        severity: "error",
        code: "required-not-in-properties",
        server: "notes",
        tool: "get_note",
        message: '"idd" is required but is not one of the properties (id); did you mean "id"?',
        path: "$.inputSchema.required[0]",
      },
    ]);
  });

  it("calling or showing a tool set aside as not valid MCP says it was set aside and why, not that it is missing (exit 1)", async () => {
    const setAside =
      'mcpterm: Server "notes" lists a tool "export_notes", but mcpterm set it aside: its definition is not valid MCP (inputSchema.type: ';
    const call = await withBugs(["call", "export_notes"], ["array-schema"]);
    expect(call.code).toBe(1);
    expect(call.stderr).toContain(setAside);
    expect(call.stderr).toMatch(/; fix its definition \(mcpterm tools shows every finding\)\.\n$/);
    const shown = await withBugs(["tools", "export_notes"], ["array-schema"]);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain(setAside);
    // A name it does not list at all is still a typo: exit 2 with the names there are.
    const typo = await withBugs(["call", "export_note"], ["array-schema"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'mcpterm: Server "notes" has no tool "export_note" (tools: list_notes, get_note, search_notes, add_note, delete_note).\n',
    );
  });

  it("a healthy server's lint passes, so CI passes (exit 0)", async () => {
    const run = await withBugs(["tools"], []);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^lint: no findings$/m);
  });
});

describe("a result that breaks its outputSchema", () => {
  it("mcpterm call names every mismatch, and --json lists them beside the result as it came", async () => {
    const text = await withBugs(["call", "get_note", "id=1"], ["output-mismatch"]);
    expect(text.code).toBe(0);
    expect(text.stderr).toContain(
      "warning: The structuredContent does not match the tool's outputSchema in 3 places:\n  at the top level: it must have required property 'body'\n  at /id: it must be integer\n  at /title: it must be string\n",
    );
    const json = await withBugs(["call", "get_note", '{"id":1}', "--json"], ["output-mismatch"]);
    const report = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(report.result).toEqual({
      // As it came: a 2026-07-28 result names its server in _meta.
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "notes", version: "0.3.0" } },
      content: [{ type: "text", text: "Rollback" }],
      structuredContent: { id: "1", title: 8, text: "Revert the deploy, then page the on-call." },
      // And says what kind of answer it is, which the SDK reads and drops.
      resultType: "complete",
    });
    expect(report.outputSchemaProblems).toEqual([
      "at the top level: it must have required property 'body'",
      "at /id: it must be integer",
      "at /title: it must be string",
    ]);
  });
});

describe("a result without content", () => {
  it("mcpterm call --json shows it as it came, not with the SDK's content: [], and names the slip (2025)", async () => {
    const json = await withBugs(
      ["call", "search_notes", "query=x", "--json", "--protocol", "2025-11-25"],
      ["no-content"],
    );
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(report.result).toEqual({ structuredContent: { found: 1 } });
    expect(report.protocolProblems).toEqual([
      "the result has no content array, which MCP requires of every tool result (the SDK reads it as [] from a 2025-11-25 server; a stricter client fails the call)",
    ]);
    expect(json.stderr).toContain("warning: the result has no content array");
  });

  it("shows the answer as it came also when its id came back as a string, as the SDK takes it", async () => {
    const json = await withBugs(["call", "get_note", "id=1", "--json"], ["string-id"]);
    expect(json.code).toBe(0);
    // The wire's answer, not the SDK's parse of it (which drops resultType).
    expect((JSON.parse(json.stdout) as { result: Record<string, unknown> }).result).toMatchObject({
      content: [{ type: "text", text: "Rollback\nRevert the deploy, then page the on-call." }],
      resultType: "complete",
    });
  });

  it("fails the call in 2026-07-28, where the SDK holds the server to it", async () => {
    const run = await withBugs(["call", "search_notes", "query=x"], ["no-content"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/broke the MCP protocol .*content: expected array, received undefined/);
  });
});

describe("junk on stdout mid-call", () => {
  it("mcpterm call warns with the line, and still prints the result", async () => {
    const run = await withBugs(["call", "get_note", "id=1"], ["stdout-junk"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'warning: server "notes" wrote to stdout, which is for JSON-RPC only (log to stderr): "debug: looking up note 1"\n',
    );
    expect(run.stdout).toContain("Rollback");
  });
});

describe("the 2026-07-28 probe, which a server must answer", () => {
  /** The words of a 2025 server written by hand that answers only the methods it knows. */
  const SILENT_ON_UNKNOWN = [
    "const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');",
    "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {",
    "  const m = JSON.parse(line);",
    "  if (m.method === 'initialize') send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'quiet', version: '1' } } });",
    "  if (m.method === 'tools/list') send({ jsonrpc: '2.0', id: m.id, result: { tools: [] } });",
    "});",
  ].join("\n");

  async function toolsOf(command: string[], startupTimeoutMs: number): Promise<CliRun> {
    const project = await tempDir();
    await writeJson(path.join(project, "mcp.config.json"), {
      mcpServers: { notes: { command: command[0], args: command.slice(1), startupTimeoutMs } },
    });
    return runCli(trustingConfig(["tools"]), { cwd: project, env: cleanEnv() });
  }

  it("left unanswered, is named as the wait every start pays, not as a slow start", async () => {
    // Given 2 s to start, a stdio server has 1 s to answer the probe.
    const run = await toolsOf([process.execPath, "-e", SILENT_ON_UNKNOWN], 2000);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /! warning probe-unanswered {2}The server never answered server\/discover \(mcpterm's 2026-07-28 probe\), so each start waits \d+ ms before mcpterm speaks 2025-11-25; answer a method you do not know with JSON-RPC error -32601 \(Method not found\), as JSON-RPC requires\./,
    );
    expect(run.stdout).not.toContain("slow-initialize");
  });

  it("answered after mcpterm stopped waiting, says the server was spoken to in 2025 and why", async () => {
    // The probe is given 5 s; the server reads nothing for 6 s, then answers both revisions.
    const slow = notesCommand(script, marker, ["slow-start"], ["AUTHOR_SLOW_MS=6000"]);
    const run = await toolsOf(slow, 20_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("protocol 2025-11-25 (legacy)");
    expect(run.stdout).toMatch(
      /! warning probe-late {2}The server answered server\/discover \(mcpterm's 2026-07-28 probe\) after \d+ ms, past the \d+ ms mcpterm waits, so it was spoken to in 2025-11-25; read stdin before slow setup, or set "protocol": "2026-07-28" in its entry to wait for it\./,
    );
  });
});

describe("a 2026 server that asks the client by request, as a 2025 server may", () => {
  /**
   * A hand-written 2026 server whose tool, called, sends `method` as a request, then answers the
   * call when that request is answered, or after `afterMs` without it (never, when unset).
   */
  const asking = (method: string, afterMs?: number): string =>
    [
      "const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');",
      "const done = { resultType: 'complete', content: [{ type: 'text', text: 'done' }] };",
      "let call;",
      "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {",
      "  const m = JSON.parse(line);",
      "  if (m.method === 'server/discover') send({ jsonrpc: '2.0', id: m.id, result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'asker', version: '1' } } });",
      "  else if (m.method === 'tools/list') send({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', ttlMs: 0, cacheScope: 'private', tools: [{ name: 'files', inputSchema: { type: 'object' } }] } });",
      `  else if (m.method === 'tools/call') { call = m.id; send({ jsonrpc: '2.0', id: 'ask-1', method: '${method}', params: {} });`,
      afterMs === undefined
        ? "  }"
        : `    setTimeout(() => send({ jsonrpc: '2.0', id: call, result: done }), ${afterMs}); }`,
      "  else if (m.id === 'ask-1') send({ jsonrpc: '2.0', id: call, result: done });",
      "});",
    ].join("\n");

  const callFiles = async (server: string, timeoutMs: number): Promise<CliRun> =>
    runCli(["call", "files", "--yes", "--timeout", String(timeoutMs), "--", process.execPath, "-e", server], {
      cwd: await tempDir(),
      env: cleanEnv(),
    });

  it("names the request left unanswered when the call waiting on it times out", async () => {
    const run = await callFiles(asking("roots/list"), 1500);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^mcpterm: server "\S+" did not answer within 1500 ms; it had sent a roots\/list request \(id "ask-1"\) and may be waiting for its answer; 2026-07-28 does not let a server send requests \(it asks for roots, sampling or the person's input inside its answer, as input_required\), so mcpterm left it unanswered/,
    );
  });

  it("fails no call that is answered in time without it, after a request or a ping", async () => {
    for (const method of ["roots/list", "ping"]) {
      const run = await callFiles(asking(method, 3300), 20_000);
      expect(run.stderr, method).toMatch(/^\d+ ms\n$/);
      expect(run.code, method).toBe(0);
      expect(run.stdout).toContain("done");
    }
  });
});

describe("a slow call", () => {
  it("mcpterm replay calls a call far slower than recorded slow, and exits 1", async () => {
    const file = await callsFile([SEARCH_CALL]);
    const run = await withBugs(["replay", file], ["slow-call"], ["AUTHOR_SLOW_MS=1200"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^⧗ 1 notes\/search_notes \{"query":"roll"\} {2}\(\d+ ms, recorded 4 ms\)$/m);
    expect(run.stdout).toMatch(
      /^ {4}slower: \d+ ms against 4 ms recorded, \d+x \(the limits: over 10x and over 1000 ms slower; --slow-factor, --slow-ms\)$/m,
    );
    expect(run.stdout).toMatch(/^1 call\(s\): 0 match, 0 differ, 1 slow$/m);
  });

  it("mcpterm call --timeout gives up, and stops a server that ignores the cancellation", async () => {
    const run = await withBugs(
      ["call", "search_notes", "query=x", "--timeout", "300"],
      ["slow-call"],
      ["AUTHOR_SLOW_MS=60000"],
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('mcpterm: server "notes" did not answer within 300 ms\n');
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });
});

describe("a renamed tool", () => {
  it("mcpterm replay names the tool that is gone and the tools there are now", async () => {
    const file = await callsFile([SEARCH_CALL]);
    const run = await withBugs(["replay", file], ["renamed-tool"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '    differs: server "notes" has no tool "search_notes" now (tools: list_notes, get_note, find_notes, add_note, delete_note)\n',
    );
  });

  it("the same recording matches the healthy server", async () => {
    const run = await withBugs(["replay", await callsFile([SEARCH_CALL])], []);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^1 call\(s\): 1 match, 0 differ$/m);
  });

  it("a calls file with a misspelled key is exit 2 naming it, not a call with no arguments", async () => {
    const { arguments: args, ...rest } = SEARCH_CALL;
    const file = await callsFile([{ ...rest, argments: args }]);
    const run = await withBugs(["replay", file], []);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`line 1 has an unknown key "argments"; did you mean "arguments"?`);
  });
});

describe("a crash in a one-shot turn", () => {
  it("tells the model the server exited and why, brings it back for the next call, records the exit, and exits 4", async () => {
    const project = await tempDir();
    await writeJson(path.join(project, "mcp.config.json"), {
      mcpServers: {
        notes: {
          command: process.execPath,
          args: [script, `--marker=${marker}`],
          env: { AUTHOR_BUG: "crash-in-handler" },
        },
      },
    });
    const model = await startScriptedModelServer([
      { toolCalls: [{ id: "c1", name: "notes__get_note", arguments: '{"id":1}' }] },
      { toolCalls: [{ id: "c2", name: "notes__list_notes", arguments: "{}" }] },
      { text: "The notes server is down." },
    ]);
    models.push(model);
    const trace = path.join(project, "trace.jsonl");
    const run = await runCli(
      [
        "-p",
        "read note 1",
        "--trust-config",
        "--no-kb",
        "--model",
        "m",
        "--base-url",
        model.baseUrl,
        "--trace",
        trace,
      ],
      { cwd: project, env: cleanEnv() },
    );
    expect(run.code).toBe(4);
    const toolMessages = (request: number): string[] =>
      (model.requests[request]?.body as { messages: Array<{ role: string; content: string }> }).messages
        .filter((message) => message.role === "tool")
        .map((message) => message.content);
    // The server is started again (the crash recovery), so the next call works; the model and
    // the person still hear how the process ended and why.
    const crash = String.raw`the server process exited \(code 1\): ${TYPE_ERROR} ${THROWN_AT}`;
    expect(toolMessages(1)[0]).toMatch(
      new RegExp(
        String.raw`^The call failed: the result is unknown: server "notes" exited during the call; .*the server is back \(connection lost: ${crash}\)$`,
      ),
    );
    // Not "Unknown tool … Available tools: none": the server's other tool runs.
    expect(toolMessages(2)[1]).not.toMatch(/Unknown tool|Not run/);
    // The person hears it as it happens, and that the server is being started again.
    expect(run.stderr).toMatch(
      new RegExp(
        String.raw`server "notes" exited \(code 1\): ${TYPE_ERROR} ${THROWN_AT} — starting it again`,
      ),
    );
    expect(run.stderr).toMatch(
      /^✗ notes\/get_note \{"id":1\} failed \(transient\): The call failed: the result is unknown: server "notes" exited/m,
    );

    const records = (await readFile(trace, "utf8"))
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { type: string });
    expect(records.find((record) => record.type === "server_exit")).toMatchObject({
      server: "notes",
      code: 1,
      signal: null,
      errorLine: "TypeError: Cannot read properties of undefined (reading 'title')",
      location: expect.stringMatching(/notes\.js:\d+:\d+$/) as string,
    });
    const tree = await runCli(["trace", trace], { cwd: project, env: cleanEnv() });
    expect(tree.stdout).toMatch(
      /notes exited \(code 1\)\n.*error: TypeError: Cannot read properties of undefined/,
    );
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });
});

describe("junk on stdout in a one-shot turn", () => {
  it("is a warning on stderr as it comes and a record in the trace, and the turn goes on", async () => {
    const project = await tempDir();
    await writeJson(path.join(project, "mcp.config.json"), {
      mcpServers: {
        notes: {
          command: process.execPath,
          args: [script, `--marker=${marker}`],
          env: { AUTHOR_BUG: "stdout-junk" },
        },
      },
    });
    const model = await startScriptedModelServer([
      { toolCalls: [{ id: "c1", name: "notes__get_note", arguments: '{"id":1}' }] },
      { text: "Note 1 is about rollbacks." },
    ]);
    models.push(model);
    const trace = path.join(project, "trace.jsonl");
    const run = await runCli(
      [
        "-p",
        "read note 1",
        "--trust-config",
        "--no-kb",
        "--model",
        "m",
        "--base-url",
        model.baseUrl,
        "--trace",
        trace,
      ],
      { cwd: project, env: cleanEnv() },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Note 1 is about rollbacks.");
    expect(run.stderr).toMatch(
      /^warning: server "notes" wrote to stdout, which is for JSON-RPC only \(log to stderr\): "debug: looking up note 1"$/m,
    );
    const records = (await readFile(trace, "utf8"))
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { type: string });
    expect(records.filter((record) => record.type === "stdout_noise")).toEqual([
      expect.objectContaining({ server: "notes", line: "debug: looking up note 1" }),
    ]);
    const tree = await runCli(["trace", trace], { cwd: project, env: cleanEnv() });
    expect(tree.stdout).toContain(
      'notes wrote to stdout, which is for JSON-RPC only: "debug: looking up note 1"',
    );
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });
});
