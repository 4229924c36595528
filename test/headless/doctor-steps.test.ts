import { describe, expect, it } from "vitest";
import { EMPTY_CATALOG } from "../../src/core/mcp/server-catalog.js";
import type { ServerSnapshot } from "../../src/core/mcp/types.js";
import { doctorSteps, type DoctorFacts } from "../../src/headless/doctor-steps.js";

const snapshot = (overrides: Partial<ServerSnapshot>): ServerSnapshot => ({
  name: "remote",
  status: "connected",
  transport: "http",
  pid: undefined,
  url: "https://mcp.example.com/mcp",
  error: undefined,
  tools: [],
  serverInfo: { name: "remote", version: "1" },
  protocolVersion: "2025-06-18",
  instructions: undefined,
  initializeMs: 40,
  catalog: EMPTY_CATALOG,
  capabilities: { tools: {} },
  era: undefined,
  refusedTools: [],
  ...overrides,
});

const remote = (overrides: Partial<DoctorFacts>): DoctorFacts => ({
  launch: "https://mcp.example.com/mcp",
  typed: false,
  transport: "http",
  lookup: undefined,
  start: snapshot({}),
  spawnError: undefined,
  handshake: {
    ms: 40,
    capabilities: { tools: {} },
    serverInfo: { name: "remote", version: "1" },
    instructions: undefined,
  },
  listingAsked: false,
  protocol: { version: "2025-06-18", era: undefined },
  lists: { tools: { ms: 12, requests: 1, error: undefined } },
  counts: { tools: 0, resources: 0, templates: 0, prompts: 0 },
  catalogProblems: [],
  signIn: { mode: "browser", stored: "valid", expiresAt: Date.UTC(2030, 0, 1), scopes: ["notes:read"] },
  stdoutNoise: [],
  stdoutCutByExit: 0,
  exits: [],
  stderr: [],
  withheldHint: "",
  lint: [],
  calls: [],
  slips: { kept: [], errors: 0, warnings: 0 },
  ...overrides,
});

/** A stdio server that started and answered, its process pid 7. */
const local = (overrides: Partial<DoctorFacts>): DoctorFacts =>
  remote({
    transport: "stdio",
    launch: "node notes.js",
    start: snapshot({ transport: "stdio", pid: 7 }),
    lookup: { found: true, path: "/usr/bin/node" },
    signIn: undefined,
    ...overrides,
  });

const byStep = (facts: DoctorFacts) =>
  Object.fromEntries(doctorSteps(facts).map((step) => [step.step, [step.status, step.summary]]));

describe("doctorSteps", () => {
  it("judges a remote server: reached, its sign-in accepted, no stdout or stderr of ours", () => {
    expect(byStep(remote({}))).toMatchObject({
      spawn: ["passed", "reached https://mcp.example.com/mcp"],
      stdout: ["skipped", "a remote server has no stdout of ours"],
      authorization: [
        "passed",
        "sign-in: browser; a stored sign-in, valid until 2030-01-01T00:00:00.000Z; accepted",
      ],
      listing: ["passed", "0 tools (12 ms), no resources offered, no prompts offered"],
      stderr: ["skipped", "a remote server's stderr is its own"],
    });
  });

  it("a URL that answered, though not as MCP, was reached: the handshake step says what was wrong", () => {
    const notMcp =
      "the server answered the server/discover probe with text/html, not JSON-RPC; check the URL";
    const answered = remote({ start: snapshot({ status: "failed", error: notMcp }), handshake: undefined });
    expect(byStep(answered).spawn).toEqual(["passed", "reached https://mcp.example.com/mcp"]);
    const refused = remote({
      start: snapshot({
        status: "failed",
        error: "the server could not be reached: nothing is listening there (connection refused)",
      }),
      handshake: undefined,
    });
    expect(byStep(refused).spawn).toEqual([
      "failed",
      "could not reach https://mcp.example.com/mcp: nothing is listening there (connection refused)",
    ]);
  });

  it("fails the sign-in step when the server refused it", () => {
    const facts = remote({
      start: snapshot({
        status: "failed",
        error: 'server "remote" needs a sign-in: run mcpterm auth login remote',
      }),
      signIn: { mode: "browser", stored: "expired", expiresAt: 0, scopes: [] },
    });
    expect(byStep(facts).authorization).toEqual([
      "failed",
      'sign-in: browser; a stored sign-in that has expired; refused: server "remote" needs a sign-in: run mcpterm auth login remote',
    ]);
  });

  it("warns of an error a running stdio server logged, with the line that says it", () => {
    const facts = local({
      stderr: ["notes: ready", "Error: could not open cache", "    at open (file:///srv/notes.js:3:9)"],
    });
    expect(byStep(facts)).toMatchObject({
      spawn: ["passed", "/usr/bin/node found; started, pid 7"],
      stdout: ["passed", "only JSON-RPC on stdout"],
      authorization: ["skipped", "a local server: nothing to sign in to"],
      stderr: [
        "warning",
        "3 line(s); the first error: Error: could not open cache (at file:///srv/notes.js:3:9)",
      ],
    });
  });

  it("tells logging on stdout apart from a message the exit cut short", () => {
    const facts = local({
      stdoutNoise: ["listening on 3000", '{"jsonrpc":"2.0","id":3,"res'],
      stdoutCutByExit: 1,
    });
    expect(byStep(facts).stdout).toEqual([
      "failed",
      "1 line(s) on stdout that are not JSON-RPC (stdout is the protocol's; log to stderr), and a JSON-RPC message the server exited before it finished writing (no line end); exit only once stdout has drained (process.exit() drops a write still pending on a pipe):",
    ]);
  });

  it("tells a process that ended on the 2026 probe, though the one started after it said nothing", () => {
    const ended = "exited (code 2): Error: unknown method server/discover";
    const facts = local({
      start: snapshot({ transport: "stdio", pid: 7, probe: { kind: "exited", ended } }),
    });
    expect(byStep(facts).stderr).toEqual([
      "warning",
      `the first process ${ended} on server/discover (mcpterm's 2026-07-28 probe) and was started again; the second: nothing on stderr`,
    ]);
    const step = doctorSteps(facts).find((found) => found.step === "stderr");
    expect(step?.facts).toEqual({ probeExit: ended, lines: 0 });
    // What the second process said is told as for any process: its error line is not lost.
    const second = doctorSteps({
      ...facts,
      stderr: ["notes: starting", "Error: ENOENT: no such file or directory, open 'notes.db'"],
    }).find((found) => found.step === "stderr");
    expect(second?.summary).toMatch(
      /and was started again; the second: 2 line\(s\); the first error: Error: ENOENT: no such file or directory, open 'notes\.db'/,
    );
  });

  it("fails a slip in an answer's id, only warns of progress that went back, and lists each", () => {
    const progress = {
      kind: "progress-not-increasing" as const,
      severity: "warning" as const,
      token: 5,
      progress: 1,
      last: 2,
      text: "progress 1 came after 2 …",
    };
    const id = {
      kind: "id-retyped" as const,
      severity: "error" as const,
      method: "tools/call",
      id: 3,
      answeredId: "3",
      text: 'tools/call (id 3) was answered with the id "3" …',
    };
    const none = { kept: [], errors: 0, warnings: 0 };
    expect(byStep(local({ slips: none }))["json-rpc"]?.[0]).toBe("passed");
    expect(byStep(local({ slips: { kept: [progress], errors: 0, warnings: 1 } }))["json-rpc"]?.[0]).toBe(
      "warning",
    );
    const failed = doctorSteps(local({ slips: { kept: [progress, id], errors: 1, warnings: 1 } })).find(
      (found) => found.step === "json-rpc",
    );
    expect(failed).toMatchObject({
      status: "failed",
      summary:
        "2 message(s) the spec forbids, which mcpterm let pass and another client may not (1 error(s), 1 warning(s)):",
      details: [progress.text, id.text],
    });
    // A server that answered nothing gave nothing to check.
    expect(byStep(local({ handshake: undefined }))["json-rpc"]?.[0]).toBe("skipped");
  });

  it("fails on an error that came after more warnings than are shown", () => {
    const warnings = Array.from({ length: 10 }, () => ({
      kind: "progress-not-increasing" as const,
      severity: "warning" as const,
      token: 1,
      progress: 0,
      last: 0,
      text: "progress 0 came after 0 …",
    }));
    const id = {
      kind: "answered-twice" as const,
      severity: "error" as const,
      method: "tools/call",
      id: 3,
      text: "tools/call (id 3) was answered a second time …",
    };
    const step = doctorSteps(local({ slips: { kept: [...warnings, id], errors: 1, warnings: 25 } })).find(
      (found) => found.step === "json-rpc",
    );
    expect(step?.status).toBe("failed");
    expect(step?.summary).toBe(
      "26 message(s) the spec forbids, which mcpterm let pass and another client may not (1 error(s), 25 warning(s)); the first 10 of each kind:",
    );
    expect(step?.details.at(-1)).toBe(id.text);
  });

  it("names the protocol era once the connection knows it", () => {
    const [, , handshake] = doctorSteps(remote({ protocol: { version: "2026-07-28", era: "modern" } }));
    expect(handshake?.summary).toMatch(/^protocol 2026-07-28 \(modern\); 40 ms;/);
  });
});
