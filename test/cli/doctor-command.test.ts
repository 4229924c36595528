import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { installNotesServer, notesCommand } from "../support/notes-server.js";
import { hostileLaunch } from "../support/hostile.js";
import { rawAnswerCommand } from "../support/raw-answer-server.js";
import { processesMatching, waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";
import { slowInitializeWarnings } from "../support/slow-initialize.js";

const marker = randomUUID();
let dir: string;
let script: string;

beforeAll(async () => {
  dir = await tempDir();
  script = await installNotesServer(dir);
});

afterAll(() => {
  for (const pid of processesMatching(marker)) process.kill(pid, "SIGKILL");
});

const hostile = hostileLaunch(marker);

const doctor = (bugs: string[], ...flags: string[]) =>
  runCli(trustingConfig(["doctor", ...flags, "--", ...notesCommand(script, marker, bugs)]), {
    cwd: dir,
    env: cleanEnv(),
  });

/** The line of one step, as `mcpterm doctor` prints it. */
function stepLine(stdout: string, step: string): string {
  const line = stdout.split("\n").find((text) => text.startsWith(`  `) && text.slice(4).startsWith(step));
  if (line === undefined) throw new Error(`no "${step}" step in:\n${stdout}`);
  return line;
}

describe("mcpterm doctor", () => {
  it("passes a healthy server, every step on one screen, in order, with its evidence", async () => {
    const run = await doctor([]);
    expect(run.code).toBe(0);
    const steps = run.stdout
      .split("\n")
      .filter((line) => /^ {2}[✓!✗·] /.test(line))
      .map((line) => line.slice(4, 18).trim());
    expect(steps).toEqual([
      "spawn",
      "stdout",
      "handshake",
      "authorization",
      "listing",
      "lint",
      "sample calls",
      "json-rpc",
      "stderr",
    ]);
    expect(run.stdout).toMatch(/^doctor: notes \(env AUTHOR_BUG= .*notes\.js --marker=\S+\)$/m);
    expect(stepLine(run.stdout, "spawn")).toMatch(/^ {2}✓ spawn +\/\S*\/env found; started, pid \d+$/);
    expect(stepLine(run.stdout, "handshake")).toMatch(
      /^ {2}✓ handshake +protocol \d{4}-\d{2}-\d{2} \((legacy|modern)\); \d+ ms; server notes 0\.3\.0; capabilities: tools, resources, prompts; instructions: 61 characters$/,
    );
    expect(run.stdout).toContain(
      "      instructions: Notes are short; read one with get_note before you change it.\n",
    );
    expect(stepLine(run.stdout, "authorization")).toBe(
      "  · authorization  a local server: nothing to sign in to",
    );
    expect(stepLine(run.stdout, "listing")).toMatch(
      /^ {2}✓ listing +5 tools \(\d+ ms\), 2 resources \(\d+ ms\), 0 resource templates \(\d+ ms\), 1 prompt \(\d+ ms\)$/,
    );
    // Only the read-only tools are called: add_note and delete_note change things.
    expect(run.stdout).toMatch(/^ {6}✓ list_notes \{\}: ok \(\d+ ms\)$/m);
    expect(run.stdout).toMatch(/^ {6}✓ get_note \{"id":1\}: ok \(\d+ ms\)$/m);
    expect(run.stdout).toMatch(/^ {6}✓ search_notes \{"query":"sample"\}: ok \(\d+ ms\)$/m);
    expect(run.stdout).not.toMatch(/add_note|delete_note/);
    // The lint step warns only if the machine was too loaded to connect within 2 s.
    const slow = slowInitializeWarnings(run.stdout);
    expect(run.stdout).toMatch(
      new RegExp(`^notes: 0 failed, ${slow} warning\\(s\\), ${8 - slow} passed, 1 skipped$`, "m"),
    );
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("names a crash in a handler with the exit code, the error line and where it was thrown, and goes on", async () => {
    const run = await doctor(["crash-in-handler"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^ {6}✗ get_note \{"id":1\}: server "notes" exited \(code 1\): TypeError: Cannot read properties of undefined \(reading 'title'\) \(at file:\/\/\/\S+\/notes\.js:\d+:\d+\)$/m,
    );
    // Started again, so the tools after it are still called.
    expect(run.stdout).toMatch(/^ {6}✓ search_notes \{"query":"sample"\}: ok/m);
    expect(stepLine(run.stdout, "stderr")).toMatch(
      /^ {2}✗ stderr +exited \(code 1\): TypeError: Cannot read properties of undefined \(reading 'title'\)/,
    );
    expect(run.stdout).toMatch(/^ {6}at: file:\/\/\/\S+\/notes\.js:\d+:\d+$/m);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("tells a crash listing the tools from one in the handshake: the listing failed, not the start", async () => {
    const run = await doctor(["crash-in-list"], "--no-calls");
    expect(run.code).toBe(1);
    expect(stepLine(run.stdout, "spawn")).toMatch(/^ {2}✓ spawn/);
    expect(stepLine(run.stdout, "handshake")).toMatch(/^ {2}✓ handshake +protocol 2026-07-28/);
    expect(stepLine(run.stdout, "listing")).toMatch(
      /^ {2}✗ listing +the server process exited \(code 1\) after the handshake, while its lists were read: TypeError: Cannot read properties of undefined \(reading 'schema'\)/,
    );
    expect(run.stdout).not.toContain("before it");
    const tools = await runCli(
      trustingConfig(["tools", "--", ...notesCommand(script, marker, ["crash-in-list"])]),
      {
        cwd: dir,
        env: cleanEnv(),
      },
    );
    expect(tools.stdout).toMatch(
      /^notes: failed — the server process exited \(code 1\) after the handshake, while its lists were read: TypeError/m,
    );
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("names a command that is not there, and a process killed by a signal before it answered", async () => {
    const missing = await runCli(trustingConfig(["doctor", "--", "no-such-mcp-server", "--stdio"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(missing.code).toBe(1);
    expect(stepLine(missing.stdout, "spawn")).toMatch(
      /^ {2}✗ spawn +command "no-such-mcp-server" was not found \(ENOENT\) in \S+; check the command and PATH$/,
    );
    // No process, so nothing of its stdout or stderr to vouch for.
    expect(stepLine(missing.stdout, "stdout")).toBe("  · stdout         no process was started");
    expect(stepLine(missing.stdout, "stderr")).toBe("  · stderr         no process was started");

    const killed = await runCli(
      trustingConfig([
        "doctor",
        "--",
        process.execPath,
        "-e",
        `process.kill(process.pid, "SIGKILL") // ${marker}`,
      ]),
      { cwd: dir, env: cleanEnv() },
    );
    expect(killed.code).toBe(1);
    expect(stepLine(killed.stdout, "spawn")).toBe(
      "  ✗ spawn          it started, then was killed by SIGKILL before it answered the handshake",
    );
    expect(stepLine(killed.stdout, "stderr")).toBe(
      "  ✗ stderr         was killed by SIGKILL, and said nothing on stderr",
    );
  });

  it("shows a server's command line without the value of an option named as a secret", async () => {
    const args = ["-e", "process.exit(3)", "--", "--db-password", "Tr0ub4dor-and-3", "--port", "8080"];
    const run = await runCli(trustingConfig(["doctor", "--no-calls", "--", process.execPath, ...args]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.stdout).toMatch(/^doctor: .* --db-password \[REDACTED\] --port 8080\)$/m);
    expect(run.stdout + run.stderr).not.toContain("Tr0ub4dor");
  });

  it("shows what a server wrote to stdout without a line break before it exited", async () => {
    const script = `process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"te', () => process.exit(0));`;
    const run = await runCli(trustingConfig(["doctor", "--no-calls", "--", process.execPath, "-e", script]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.code).toBe(1);
    // Begun as an answer and left without its end by the exit: no logging, a message cut short.
    expect(stepLine(run.stdout, "stdout")).toMatch(
      /✗ stdout +(a|\d+) JSON-RPC messages? on stdout the server exited before it finished writing \(no line end\)/,
    );
    expect(run.stdout).toContain(
      '"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"result\\":{\\"content\\":[{\\"type\\":\\"te"',
    );
  });

  it("names a crash at start by its SyntaxError, which the tail of its stack would have hidden", async () => {
    const run = await doctor(["crash-at-start"]);
    expect(run.code).toBe(1);
    expect(stepLine(run.stdout, "spawn")).toMatch(
      /^ {2}✗ spawn +it started, then exited \(code 1\) before it answered the handshake: SyntaxError: Expected property name or '\}' in JSON at position 2 .*\(at file:\/\/\/\S+\/notes\.js:\d+:\d+\)$/,
    );
    expect(stepLine(run.stdout, "handshake")).toBe("  · handshake      the server never answered");
  });

  it("names the schema mistakes at their paths, and the call a required typo keeps from being made", async () => {
    const run = await doctor(["invalid-schema", "required-typo"]);
    expect(run.code).toBe(1);
    expect(stepLine(run.stdout, "lint")).toBe(
      `  ✗ lint           3 error(s), ${slowInitializeWarnings(run.stdout)} warning(s)`,
    );
    expect(run.stdout).toContain(
      '      ✗ error required-not-in-properties  get_note $.inputSchema.required[0]: "idd" is required but is not one of the properties (id); did you mean "id"?\n',
    );
    expect(run.stdout).toContain(
      '      ✗ error unknown-type  search_notes $.inputSchema.properties.limit.type: "int" is not a JSON Schema type; use "integer"',
    );
    expect(run.stdout).toContain(
      '      ✗ error invalid-schema  search_notes $.inputSchema.properties.limit.minimum: "minimum" must be a number, got "1"\n',
    );
    expect(run.stdout).toMatch(
      /^ {6}· get_note \{\}: not called: no arguments made from its input schema fit it \(.*'idd'\)$/m,
    );
  });

  it("fails a server with a tool it set aside as not valid MCP, naming the tool and why", async () => {
    const run = await doctor(["array-schema"]);
    expect(run.code).toBe(1);
    expect(stepLine(run.stdout, "listing")).toMatch(/^ {2}✓ listing +5 tools/);
    expect(stepLine(run.stdout, "lint")).toBe(
      `  ✗ lint           1 error(s), ${slowInitializeWarnings(run.stdout)} warning(s)`,
    );
    expect(run.stdout).toMatch(
      /^ {6}✗ error tool-not-listed {2}export_notes: Not listed: its definition is not valid MCP \(inputSchema\.type: .*"object".*\)\.$/m,
    );
  });

  it("blames a failed handshake on its cause, not on the exit mcpterm caused by closing stdin", async () => {
    // A 2025 server pinned to 2026: it answers the probe "Method not found", and exits (code 0)
    // once mcpterm gives up and closes its stdin.
    const run = await runCli(
      trustingConfig(["doctor", "--protocol", "2026-07-28", "--", ...rawAnswerCommand("{}")]),
      {
        cwd: dir,
        env: cleanEnv(),
      },
    );
    expect(run.code).toBe(1);
    expect(stepLine(run.stdout, "spawn")).toMatch(/^ {2}✓ spawn +\S+ found; started/);
    expect(stepLine(run.stdout, "handshake")).toMatch(
      /^ {2}✗ handshake +the revision could not be settled: the server did not offer pinned protocol version 2026-07-28/,
    );
    expect(run.stdout).not.toContain("exited (code 0)");
  });

  it("names stdout junk mid-call and every outputSchema mismatch", async () => {
    const run = await doctor(["stdout-junk", "output-mismatch"]);
    expect(run.code).toBe(1);
    expect(stepLine(run.stdout, "stdout")).toBe(
      "  ✗ stdout         1 line(s) on stdout that are not JSON-RPC (stdout is the protocol's; log to stderr):",
    );
    expect(run.stdout).toContain('      "debug: looking up note 1"\n');
    expect(run.stdout).toMatch(
      /^ {6}✗ get_note \{"id":1\}: the result breaks its outputSchema in 3 place\(s\) \(\d+ ms\)\n {10}at the top level: it must have required property 'body'\n {10}at \/id: it must be integer\n {10}at \/title: it must be string$/m,
    );
  });

  it("names answers under another type of id, answers sent twice and progress that went back", async () => {
    const run = await doctor(["string-id", "double-answer", "progress-backwards", "progress-after-answer"]);
    expect(run.code).toBe(1);
    // The SDK took each of them: the calls passed.
    expect(stepLine(run.stdout, "sample calls")).toMatch(/3 passed, 0 failed/);
    expect(stepLine(run.stdout, "json-rpc")).toBe(
      "  ✗ json-rpc       4 message(s) the spec forbids, which mcpterm let pass and another client may not (2 error(s), 2 warning(s)):",
    );
    expect(run.stdout).toMatch(
      /^ {6}tools\/call \(id (\d+)\) was answered a second time: a request has one answer, and a client may take the second for another request's$/m,
    );
    expect(run.stdout).toMatch(
      /^ {6}tools\/call \(id (\d+)\) was answered with the id "\1", a string: an answer's id must be its request's, of the same type \(JSON-RPC 2\.0\)$/m,
    );
    expect(run.stdout).toMatch(
      /^ {6}progress 1 came after 2 for the same request \(token \d+\): each progress notification's progress must be greater than the last \(MCP\)$/m,
    );
    expect(run.stdout).toMatch(
      /^ {6}progress 1 came after the request was answered \(token \d+\): progress notifications must stop once it is \(MCP\)$/m,
    );

    // The same slips as data, for CI: each of its kind, with the ids and progress it names.
    const json = await doctor(
      ["string-id", "double-answer", "progress-backwards", "progress-after-answer"],
      "--json",
    );
    const report = JSON.parse(json.stdout) as {
      servers: Array<{ steps: Array<{ step: string; status: string; facts: Record<string, unknown> }> }>;
    };
    const step = report.servers[0]?.steps.find((found) => found.step === "json-rpc");
    expect(step?.status).toBe("failed");
    expect(step?.facts).toMatchObject({ errors: 2, warnings: 2 });
    const slips = step?.facts.slips as Array<Record<string, unknown>>;
    expect(slips.map((slip) => slip.kind).sort()).toEqual([
      "answered-twice",
      "id-retyped",
      "progress-after-answer",
      "progress-not-increasing",
    ]);
    const retyped = slips.find((slip) => slip.kind === "id-retyped");
    expect(retyped).toMatchObject({ severity: "error", method: "tools/call" });
    expect(retyped?.answeredId).toBe(String(retyped?.id));
    expect(slips.find((slip) => slip.kind === "progress-not-increasing")).toMatchObject({
      severity: "warning",
      progress: 1,
      last: 2,
    });
  });

  it("names a tool result without content, which the SDK lets pass in 2025-11-25 as content: []", async () => {
    const run = await doctor(["no-content"], "--protocol", "2025-11-25");
    expect(run.code).toBe(1);
    expect(stepLine(run.stdout, "sample calls")).toMatch(/3 passed, 0 failed/);
    expect(run.stdout).toMatch(
      /^ {6}tools\/call \(id \d+\) was answered without content: a tool's result must have a content array \(MCP\)/m,
    );
    const json = await doctor(["no-content"], "--protocol", "2025-11-25", "--json");
    const steps = (
      JSON.parse(json.stdout) as {
        servers: Array<{ steps: Array<{ step: string; facts: Record<string, unknown> }> }>;
      }
    ).servers[0]?.steps;
    expect(steps?.find((step) => step.step === "json-rpc")?.facts).toMatchObject({
      errors: 1,
      slips: [{ kind: "content-missing", severity: "error", method: "tools/call" }],
    });
    // In 2026-07-28 the call itself fails, and is told there, not again as a slip.
    const modern = await doctor(["no-content"]);
    expect(modern.stdout).toMatch(/^ {6}✗ search_notes \{"query":"sample"\}: .*content: expected array/m);
    expect(stepLine(modern.stdout, "json-rpc")).toMatch(/^ {2}✓ json-rpc/);
  });

  it("holds a call that reports progress without end to --timeout", async () => {
    const run = await runCli(
      trustingConfig([
        "doctor",
        "--timeout",
        "1500",
        "--",
        "env",
        ...Object.entries(hostile.env).map(([name, value]) => `${name}=${value}`),
        hostile.command,
        ...hostile.args,
      ]),
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.stdout).toMatch(
      /^ {6}✗ progress_flood \{\}: stopped after 1500 ms, the most one call to server "\S+" may take \(--timeout, the doctor's limit on one call\), though it kept reporting progress$/m,
    );
  }, 30_000);

  it("warns of a slow call, which fails nothing", async () => {
    const run = await runCli(
      trustingConfig([
        "doctor",
        "--",
        ...notesCommand(script, marker, ["slow-call"], ["AUTHOR_SLOW_MS=1200"]),
      ]),
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {6}! search_notes \{"query":"sample"\}: slow: \d+ ms \(over 1000 ms\)$/m);
    expect(stepLine(run.stdout, "sample calls")).toMatch(/^ {2}! sample calls/);
  });

  it("says the same as JSON for CI, and calls nothing with --no-calls", async () => {
    const run = await doctor(["required-typo"], "--json", "--no-calls");
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      ok: boolean;
      servers: Array<{
        server: string;
        ok: boolean;
        steps: Array<{ step: string; status: string; summary: string; facts: Record<string, unknown> }>;
      }>;
    };
    expect(report.ok).toBe(false);
    const [notes] = report.servers;
    expect(notes?.server).toBe("notes");
    const byName = Object.fromEntries((notes?.steps ?? []).map((step) => [step.step, step]));
    expect(byName.handshake?.facts.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(byName.handshake?.facts).toMatchObject({
      // The notes fixture speaks both revisions: its answer to the server/discover probe is the handshake.
      era: "modern",
      serverInfo: { name: "notes", version: "0.3.0" },
      capabilities: { tools: {}, resources: {}, prompts: {} },
    });
    expect(byName.lint).toMatchObject({ status: "failed", facts: { errors: 1 } });
    // A loaded machine can make any fixture start slowly (slow-initialize): not counted here.
    const findings = (byName.lint?.facts.findings as Array<{ code: string }>).filter(
      (finding) => finding.code !== "slow-initialize",
    );
    expect(findings).toMatchObject([
      { code: "required-not-in-properties", path: "$.inputSchema.required[0]" },
    ]);
    expect(byName["sample calls"]).toMatchObject({
      status: "skipped",
      summary: "not asked for (--no-calls)",
    });
  });

  it("says an entry its config kept from starting was not started or contacted, and claims nothing of it", async () => {
    const project = await tempDir();
    await writeJson(path.join(project, "mcp.config.json"), {
      mcpServers: {
        remote: { url: "http://mcp.example.com/mcp", headers: { "X-Key": "abcdefgh12345" } },
        local: { command: process.execPath, args: ["-e", "0"], env: { KEY: "${NOT_SET_FOR_DOCTOR}" } },
      },
    });
    const run = await runCli(trustingConfig(["doctor", "--no-calls"]), { cwd: project, env: cleanEnv() });
    expect(run.code).toBe(1);
    const [remote, local] = run.stdout.split(/^doctor: /m).slice(1);
    expect(stepLine(remote ?? "", "spawn")).toMatch(
      /^ {2}✗ spawn +not contacted: mcpServers\.remote would send its headers \(X-Key\) in clear text to mcp\.example\.com over plain http/,
    );
    expect(stepLine(remote ?? "", "handshake")).toMatch(/^ {2}· handshake +the server was not contacted$/);
    expect(stepLine(remote ?? "", "authorization")).toMatch(/not reached$/);
    expect(stepLine(local ?? "", "spawn")).toMatch(
      /^ {2}✗ spawn +not started: \$\{NOT_SET_FOR_DOCTOR\} is not set \(used in mcpServers\.local\.env\.KEY/,
    );
    for (const step of ["stdout", "stderr"])
      expect(stepLine(local ?? "", step)).toMatch(/no process was started$/);
    expect(run.stdout).not.toMatch(/reached http|✓ stdout|✓ stderr/);
  });

  it("examines the servers of the config when none is typed, and says when there are none", async () => {
    const configured = await tempDir();
    await writeJson(path.join(configured, "mcp.config.json"), {
      mcpServers: {
        notes: { command: process.execPath, args: [script, `--marker=${marker}`] },
        missing: { command: "no-such-mcp-server-command" },
      },
    });
    const run = await runCli(trustingConfig(["doctor", "--no-calls"]), { cwd: configured, env: cleanEnv() });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^notes: 0 failed/m);
    expect(run.stdout).toMatch(
      /^ {2}✗ spawn +command "no-such-mcp-server-command" was not found \(ENOENT\) in \S+; check the command and PATH$/m,
    );
    const empty = await runCli(trustingConfig(["doctor"]), { cwd: await tempDir(), env: cleanEnv() });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(
      /^mcpterm: There is no mcp\.config\.json here, so there is no server to examine; name one after -- \(mcpterm doctor -- node build\/server\.js\)/,
    );
    const named = await runCli(["doctor", "notes"], { cwd: await tempDir(), env: cleanEnv() });
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(
      /^mcpterm: There is no server named "notes": this folder has no mcp\.config\.json;/,
    );
  });
});
