import type { CommandLookup } from "../core/mcp/command-lookup.js";
import {
  essentialsText,
  howItEnded,
  stderrEssentials,
  type ServerExitReport,
} from "../core/mcp/server-exit.js";
import { protocolLabel, type ProtocolFacts } from "../core/mcp/protocol-facts.js";
import type { LintFinding } from "../core/mcp/tool-lint.js";
import type { ServerSnapshot } from "../core/mcp/types.js";
import type { SignInMode } from "../core/oauth/sign-in-mode.js";
import { truncateEnd } from "../core/text/index.js";
import type { SampleCall } from "./doctor-calls.js";
import type { HandshakeAnswer, RequestTiming } from "./doctor-wire.js";
import { MAX_SLIPS, type JsonRpcSlips } from "./json-rpc-slips.js";
import { findingLine } from "./tool-report.js";
import { MODERN_REVISION, NOT_REACHED } from "../core/mcp/protocol-era.js";

export type StepStatus = "passed" | "warning" | "failed" | "skipped";

export type StepName =
  | "spawn"
  | "stdout"
  | "handshake"
  | "authorization"
  | "listing"
  | "lint"
  | "sample calls"
  | "json-rpc"
  | "stderr";

/** One step of a server's start and use: how it went, in a line, with the evidence under it. */
export interface DoctorStep {
  step: StepName;
  status: StepStatus;
  summary: string;
  /** Lines of evidence shown under the summary (every lint finding, every sample call). */
  details: string[];
  /** The same evidence as data, for --json. */
  facts: Record<string, unknown>;
}

/** How a remote server signs in, and what is stored for it. */
export interface SignInFacts {
  mode: SignInMode;
  stored: "none" | "valid" | "expired";
  expiresAt: number | undefined;
  scopes: string[];
}

/** Everything the doctor saw of one server, gathered while it ran (doctor-examine.ts). */
export interface DoctorFacts {
  /** `node build/notes.js`, or the URL. */
  launch: string;
  /** Typed on the command line (after -- or as --url) rather than named from the config. */
  typed: boolean;
  transport: ServerSnapshot["transport"];
  /** Where the command was found on PATH (stdio servers). */
  lookup: CommandLookup | undefined;
  /** The server's state once its start settled (before any sample call). */
  start: ServerSnapshot;
  /** The spawn error, when the process could not be started at all. */
  spawnError: string | undefined;
  handshake: HandshakeAnswer | undefined;
  /**
   * tools/list went out at start: the handshake was done, so a start that failed, failed in the
   * listing (a server that crashes or times out as its tools, resources or prompts are listed).
   */
  listingAsked: boolean;
  /** The protocol the connection knows the server speaks (protocol-facts.ts: version, era). */
  protocol: ProtocolFacts;
  lists: {
    tools?: RequestTiming;
    resources?: RequestTiming;
    templates?: RequestTiming;
    prompts?: RequestTiming;
  };
  /** Counts once listed (the catalog's problems say what could not be). */
  counts: { tools: number; resources: number; templates: number; prompts: number };
  catalogProblems: string[];
  signIn: SignInFacts | undefined;
  /**
   * Why the entry was never started or contacted (its config's problem: a variable not set, a
   * URL that would send secrets in clear text, two credentials), redacted.
   */
  notStarted?: string | undefined;
  /** Every non-JSON line on stdout, at start and during the calls. */
  stdoutNoise: string[];
  /** How many of them are a JSON-RPC message the process exited before it finished writing. */
  stdoutCutByExit: number;
  /** Every time the process ended while the doctor watched (at start, or in a sample call). */
  exits: ServerExitReport[];
  /** The stderr of the process running last. */
  stderr: string[];
  /**
   * ` (API_KEY is set in your environment, but a server gets only the variables its entry
   * names: …)` when the server failed saying a variable is missing that the person has set; "".
   */
  withheldHint: string;
  lint: LintFinding[];
  /** The sample calls, or why none were made. */
  calls: SampleCall[] | { skipped: string };
  /** What the server sent, at start and in the calls, that JSON-RPC 2.0 or MCP forbids (doctor-wire.ts). */
  slips: JsonRpcSlips;
}

const NOISE_SHOWN = 3;

/** The steps, in the order a server goes through them, each judged from the facts. Pure. */
export function doctorSteps(facts: DoctorFacts): DoctorStep[] {
  return [
    spawnStep(facts),
    stdoutStep(facts),
    handshakeStep(facts),
    authorizationStep(facts),
    listingStep(facts),
    lintStep(facts),
    callsStep(facts),
    jsonRpcStep(facts),
    stderrStep(facts),
  ];
}

function step(
  name: StepName,
  status: StepStatus,
  summary: string,
  facts: Record<string, unknown> = {},
  details: string[] = [],
): DoctorStep {
  return { step: name, status, summary, details, facts };
}

function connected(facts: DoctorFacts): boolean {
  return facts.start.status === "connected";
}

/** The process ended before the server answered the handshake (server/discover or initialize). */
function diedAtStart(facts: DoctorFacts): ServerExitReport | undefined {
  return !connected(facts) && facts.transport === "stdio" && !facts.listingAsked ? facts.exits[0] : undefined;
}

/** The handshake was done, and the start failed after it, as the lists were read. */
function failedListing(facts: DoctorFacts): boolean {
  return !connected(facts) && facts.listingAsked;
}

/** A remote server that answered, but refused the connection for want of authorization. */
function refusedSignIn(facts: DoctorFacts): boolean {
  return (
    facts.notStarted === undefined &&
    facts.transport !== "stdio" &&
    !connected(facts) &&
    /\b40[13]\b|authoriz|sign[- ]?in/i.test(facts.start.error ?? "")
  );
}

function spawnStep(facts: DoctorFacts): DoctorStep {
  if (facts.notStarted !== undefined)
    return step(
      "spawn",
      "failed",
      `not ${facts.transport === "stdio" ? "started" : "contacted"}: ${facts.notStarted}`,
    );
  if (facts.transport !== "stdio") {
    const over =
      facts.transport === "sse" ? " (the legacy SSE transport: it does not speak Streamable HTTP)" : "";
    if (refusedSignIn(facts))
      return step("spawn", "passed", `reached ${facts.launch}, which asks for authorization (below)`, {
        url: facts.launch,
      });
    // A server that answered, though not as MCP (a 404 page, JSON of its own), was reached: the
    // handshake step says what was wrong with its answer.
    if (!connected(facts) && facts.handshake === undefined && !answeredAtAll(facts.start.error))
      return step(
        "spawn",
        "failed",
        `could not reach ${facts.launch}: ${withoutPrefix(facts.start.error ?? "no answer", `${NOT_REACHED}: `)}`,
      );
    return step("spawn", "passed", `reached ${facts.launch}${over}`, {
      url: facts.launch,
      transport: facts.transport,
    });
  }
  const found = facts.lookup?.found === true ? facts.lookup.path : undefined;
  const lookupFacts = { command: facts.launch, found: facts.lookup?.found === true, path: found };
  if (facts.spawnError !== undefined) return step("spawn", "failed", facts.spawnError, lookupFacts);
  if (facts.lookup?.found === false) return step("spawn", "failed", facts.lookup.reason, lookupFacts);
  const exit = diedAtStart(facts);
  if (exit) {
    const said = essentialsText(exit);
    return step(
      "spawn",
      "failed",
      `it started, then ${howItEnded(exit)} before it answered the handshake${said ? `: ${said}` : ""}${facts.withheldHint}`,
      { ...lookupFacts, exit: { code: exit.code, signal: exit.signal } },
    );
  }
  const pid = facts.start.pid === undefined ? "" : `, pid ${facts.start.pid}`;
  return step("spawn", "passed", `${found ?? "the command"} found; started${pid}`, {
    ...lookupFacts,
    pid: facts.start.pid,
  });
}

function withoutPrefix(text: string, prefix: string): string {
  return text.startsWith(prefix) ? text.slice(prefix.length) : text;
}

/** Whether a remote server's failure to connect came after it answered something (not a network failure). */
function answeredAtAll(error: string | undefined): boolean {
  if (error === undefined) return false;
  if (error.startsWith(NOT_REACHED)) return false;
  // What other paths (the legacy SSE fallback, a timeout) say of a URL nothing answered at.
  return !/fetch failed|timed out|timeout|ECONN|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|certificate|TLS/i.test(
    error,
  );
}

/** What the steps that watch a process say when there was none. */
const NOT_STARTED = "no process was started";

/** No process ran: it could not be spawned, or its entry's problem kept it from being started. */
function neverStarted(facts: DoctorFacts): boolean {
  return facts.spawnError !== undefined || facts.notStarted !== undefined;
}

function stdoutStep(facts: DoctorFacts): DoctorStep {
  if (facts.transport !== "stdio") return step("stdout", "skipped", "a remote server has no stdout of ours");
  if (neverStarted(facts)) return step("stdout", "skipped", NOT_STARTED);
  const noise = facts.stdoutNoise;
  const [first] = noise;
  if (first === undefined) return step("stdout", "passed", "only JSON-RPC on stdout", { nonJsonLines: 0 });
  const cut = facts.stdoutCutByExit;
  // A message the exit cut short is no logging: "log to stderr" would send its author the wrong way.
  const cutShort = `the server exited before it finished writing (no line end); exit only once stdout has drained (process.exit() drops a write still pending on a pipe)`;
  const messages = cut === 1 ? "a JSON-RPC message" : `${cut} JSON-RPC messages`;
  const logged = noise.length - cut;
  const what =
    logged === 0
      ? `${messages} on stdout ${cutShort}`
      : `${logged} line(s) on stdout that are not JSON-RPC (stdout is the protocol's; log to stderr)${cut > 0 ? `, and ${messages} ${cutShort}` : ""}`;
  return step(
    "stdout",
    "failed",
    `${what}${noise.length > NOISE_SHOWN ? `; the first ${NOISE_SHOWN}:` : ":"}`,
    { nonJsonLines: noise.length, first, cutByExit: cut },
    noise.slice(0, NOISE_SHOWN).map((line) => JSON.stringify(truncateEnd(line, 160))),
  );
}

function handshakeStep(facts: DoctorFacts): DoctorStep {
  const answer = facts.handshake;
  if (!answer) {
    if (facts.notStarted !== undefined)
      return step(
        "handshake",
        "skipped",
        `the server was not ${facts.transport === "stdio" ? "started" : "contacted"}`,
      );
    if (facts.spawnError !== undefined || diedAtStart(facts))
      return step("handshake", "skipped", "the server never answered");
    if (refusedSignIn(facts)) return step("handshake", "skipped", "not before a sign-in");
    return step(
      "handshake",
      "failed",
      facts.start.error ?? "the server answered neither server/discover nor initialize",
    );
  }
  const info = answer.serverInfo;
  const capabilities = Object.keys(answer.capabilities);
  const instructions = answer.instructions;
  const parts = [
    protocolLabel(facts.protocol) ?? "protocol ?",
    `${answer.ms} ms`,
    info ? `server ${info.name ?? "?"} ${info.version ?? ""}`.trim() : "no serverInfo",
    `capabilities: ${capabilities.join(", ") || "none"}`,
    instructions === undefined ? "no instructions" : `instructions: ${instructions.length} characters`,
  ];
  const factsOut = {
    ms: answer.ms,
    protocolVersion: facts.protocol.version ?? null,
    era: facts.protocol.era ?? null,
    serverInfo: info ?? null,
    capabilities: answer.capabilities,
    instructions: instructions ?? null,
  };
  const details =
    instructions === undefined
      ? []
      : [`instructions: ${truncateEnd(instructions.replace(/\s+/g, " "), 160)}`];
  if (!connected(facts) && !failedListing(facts))
    return step(
      "handshake",
      "failed",
      `${parts.join("; ")}; then: ${facts.start.error ?? "it failed"}`,
      factsOut,
      details,
    );
  return step("handshake", "passed", parts.join("; "), factsOut, details);
}

function authorizationStep(facts: DoctorFacts): DoctorStep {
  const signIn = facts.signIn;
  if (!signIn || signIn.mode === "local")
    return step("authorization", "skipped", "a local server: nothing to sign in to");
  const stored =
    signIn.stored === "none"
      ? "no sign-in stored"
      : signIn.stored === "expired"
        ? "a stored sign-in that has expired"
        : `a stored sign-in${signIn.expiresAt === undefined ? "" : `, valid until ${new Date(signIn.expiresAt).toISOString()}`}`;
  const factsOut = { mode: signIn.mode, stored: signIn.stored, scopes: signIn.scopes };
  const mode = `sign-in: ${signIn.mode}`;
  if (connected(facts))
    return step(
      "authorization",
      "passed",
      signIn.stored === "none" && signIn.mode === "browser"
        ? `${mode}; none stored, and none needed: the server did not ask`
        : `${mode}; ${stored}; accepted`,
      factsOut,
    );
  if (!refusedSignIn(facts))
    return step("authorization", "skipped", `${mode}; ${stored}; not reached`, factsOut);
  return step(
    "authorization",
    "failed",
    `${mode}; ${stored}; refused: ${facts.start.error ?? ""}`,
    factsOut,
    [
      // The hint a typed server needs: it has no config entry to put a header in.
      ...(facts.typed
        ? ['a server given with --url sends a token as --header "Authorization: Bearer ${TOKEN}"']
        : []),
    ],
  );
}

function listingStep(facts: DoctorFacts): DoctorStep {
  if (failedListing(facts)) return step("listing", "failed", facts.start.error ?? "tools/list failed");
  if (!connected(facts)) return step("listing", "skipped", "the server is not connected");
  const { counts, lists } = facts;
  const timed = (count: number, noun: string, timing: RequestTiming | undefined): string =>
    `${count} ${noun}${count === 1 ? "" : "s"}${timing ? ` (${timing.ms} ms${timing.requests > 1 ? `, ${timing.requests} pages` : ""})` : ""}`;
  const offered = facts.handshake?.capabilities ?? {};
  const parts = [
    timed(counts.tools, "tool", lists.tools),
    "resources" in offered ? timed(counts.resources, "resource", lists.resources) : "no resources offered",
    "resources" in offered ? timed(counts.templates, "resource template", lists.templates) : undefined,
    "prompts" in offered ? timed(counts.prompts, "prompt", lists.prompts) : "no prompts offered",
  ].filter((part) => part !== undefined);
  const factsOut = {
    ...counts,
    ms: Object.fromEntries(Object.entries(lists).map(([kind, timing]) => [kind, timing.ms])),
  };
  if (facts.catalogProblems.length > 0)
    return step("listing", "failed", parts.join(", "), factsOut, facts.catalogProblems);
  return step("listing", "passed", parts.join(", "), factsOut);
}

function lintStep(facts: DoctorFacts): DoctorStep {
  if (!connected(facts)) return step("lint", "skipped", "no tools were listed");
  const errors = facts.lint.filter((finding) => finding.severity === "error").length;
  const warnings = facts.lint.length - errors;
  const details = facts.lint.map((finding) => findingLine(finding, true).trimStart());
  const factsOut = { errors, warnings, findings: facts.lint };
  if (facts.lint.length === 0) return step("lint", "passed", "no findings", factsOut);
  return step(
    "lint",
    errors > 0 ? "failed" : "warning",
    `${errors} error(s), ${warnings} warning(s)`,
    factsOut,
    details,
  );
}

function callsStep(facts: DoctorFacts): DoctorStep {
  const { calls } = facts;
  if (!Array.isArray(calls)) return step("sample calls", "skipped", calls.skipped);
  const count = (status: StepStatus): number => calls.filter((call) => call.status === status).length;
  const failed = count("failed");
  const warned = count("warning");
  const summary = `${calls.length} read-only tool(s) called with generated arguments: ${count("passed")} passed, ${failed} failed, ${warned} warning(s), ${count("skipped")} not called`;
  const status: StepStatus = failed > 0 ? "failed" : warned > 0 ? "warning" : "passed";
  return step(
    "sample calls",
    status,
    summary,
    { calls },
    calls.flatMap((call) => [
      `${MARK[call.status]} ${call.label}: ${call.outcome}`,
      ...call.problems.map((line) => `    ${line}`),
    ]),
  );
}

function jsonRpcStep(facts: DoctorFacts): DoctorStep {
  if (neverStarted(facts)) return step("json-rpc", "skipped", NOT_STARTED);
  const { kept, errors, warnings } = facts.slips;
  const total = errors + warnings;
  if (total === 0 && facts.handshake === undefined)
    return step("json-rpc", "skipped", "the server answered nothing to check");
  const factsOut = { slips: kept, errors, warnings };
  if (total === 0)
    return step(
      "json-rpc",
      "passed",
      "every answer had its request's id, once; progress only grew",
      factsOut,
    );
  const shown = kept.length < total ? `; the first ${MAX_SLIPS} of each kind:` : ":";
  return step(
    "json-rpc",
    errors > 0 ? "failed" : "warning",
    `${total} message(s) the spec forbids, which mcpterm let pass and another client may not (${errors} error(s), ${warnings} warning(s))${shown}`,
    factsOut,
    kept.map((slip) => slip.text),
  );
}

function stderrStep(facts: DoctorFacts): DoctorStep {
  if (facts.transport !== "stdio") return step("stderr", "skipped", "a remote server's stderr is its own");
  if (neverStarted(facts)) return step("stderr", "skipped", NOT_STARTED);
  // A crash tells the most; without one, the stderr of the process now running.
  const exits = facts.exits;
  if (exits.length > 0) {
    const [first] = exits;
    const said = first ? essentialsText(first) : undefined;
    const restarts = exits.length > 1 ? ` (it ended ${exits.length} times)` : "";
    return step(
      "stderr",
      "failed",
      `${first ? howItEnded(first) : "exited"}${restarts}${said ? `: ${said}` : ", and said nothing on stderr"}`,
      {
        exits: exits.map((exit) => ({
          code: exit.code,
          signal: exit.signal,
          errorLine: exit.errorLine ?? null,
          location: exit.location ?? null,
          cause: exit.cause ?? null,
          lines: exit.stderr.length,
        })),
      },
      essentialLines(first),
    );
  }
  const running = runningStderrStep(facts.stderr.filter((line) => line.trim() !== ""));
  // The process that ended on the probe is not the one running now: its end is told first.
  const { probe } = facts.start;
  if (probe?.kind !== "exited") return running;
  return step(
    "stderr",
    "warning",
    `the first process ${probe.ended} on server/discover (mcpterm's ${MODERN_REVISION} probe) and was started again; the second: ${running.summary}`,
    { probeExit: probe.ended, ...running.facts },
    running.details,
  );
}

/** The stderr of the process running now, as the step tells it: passed, or the first error line. */
function runningStderrStep(lines: readonly string[]): DoctorStep {
  if (lines.length === 0) return step("stderr", "passed", "nothing on stderr", { lines: 0 });
  const essentials = stderrEssentials(lines);
  const saysError =
    essentials.errorLine !== undefined && /error|exception|fatal|panic|fail/i.test(essentials.errorLine);
  if (!saysError)
    return step(
      "stderr",
      "passed",
      `${lines.length} line(s), none of them an error; last: ${JSON.stringify(truncateEnd(lines.at(-1) ?? "", 100))}`,
      {
        lines: lines.length,
      },
    );
  return step(
    "stderr",
    "warning",
    `${lines.length} line(s); the first error: ${essentialsText(essentials) ?? ""}`,
    { lines: lines.length, ...essentials },
  );
}

function essentialLines(exit: ServerExitReport | undefined): string[] {
  if (!exit) return [];
  return [
    ...(exit.errorLine ? [`error: ${exit.errorLine}`] : []),
    ...(exit.location ? [`at: ${exit.location}`] : []),
    ...(exit.cause ? [`cause: ${exit.cause}`] : []),
    `${exit.stderr.length} line(s) of stderr in all (--debug prints them as they come)`,
  ];
}

export const MARK: Record<StepStatus, string> = { passed: "✓", warning: "!", failed: "✗", skipped: "·" };
