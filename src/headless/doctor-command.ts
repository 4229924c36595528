import type { CliArgs } from "../args/index.js";
import type { CliIo } from "../common/cli-io.js";
import { loadCommandConfig } from "../common/load-project-config.js";
import { ExitCode, UsageError } from "../core/errors.js";
import { sessionRedactor } from "../core/session/session-redactor.js";
import { examineServer } from "./doctor-examine.js";
import { settleServerStart } from "./trust-gate.js";
import { allPassed, renderDoctor, renderDoctorJson, type DoctorReport } from "./doctor-render.js";
import { doctorSteps } from "./doctor-steps.js";
import { requireServerConfig } from "./with-one-server.js";

type DoctorArgs = Extract<CliArgs, { command: "doctor" }>;

/** How long a sample call may take when --timeout does not say (a server's own may be minutes). */
const SAMPLE_CALL_TIMEOUT_MS = 10_000;

/**
 * `mcpterm doctor [server] | -- <command> | --url <url>`: starts each server (the one named or
 * typed, else every enabled one of the config) and goes through its start and use step by step —
 * spawn, stdout, handshake, sign-in, lists, lint, a call of each read-only tool, stderr — each
 * passed, warned or failed with its evidence, on one screen. Exit 0 when no step failed, 1 when
 * one did; `--json` gives the same for CI.
 */
export async function runDoctorCommand(args: DoctorArgs, io: CliIo): Promise<ExitCode> {
  const config = await loadCommandConfig(args.common, io);
  const servers =
    args.server === undefined
      ? config.servers.filter((server) => !server.disabled)
      : [requireServerConfig(config, args.server)];
  if (servers.length === 0)
    throw new UsageError(
      `${config.path === undefined ? "There is no mcp.config.json here, so" : `${config.path} has no enabled server, so`} there is no server to examine; name one after -- (mcpterm doctor -- node build/server.js) or give --url <url>.`,
    );
  const redactor = sessionRedactor(config, io.env);
  // Asked once for every server examined, not once each; settled, the examination does not ask again.
  await settleServerStart(config, servers, args.common, io, redactor);
  const settled = { ...args.common, trustConfig: true };
  const reports: DoctorReport[] = [];
  for (const server of servers) {
    if (io.signal.aborted) break;
    const facts = await examineServer(server, {
      config,
      common: settled,
      io,
      redactor,
      calls: args.calls,
      timeoutMs: args.timeoutMs ?? Math.min(server.timeoutMs, SAMPLE_CALL_TIMEOUT_MS),
    });
    const report = { server: server.name, launch: facts.launch, steps: doctorSteps(facts) };
    reports.push(report);
    if (!args.json) io.stdout.write(renderDoctor(report, redactor.redactText));
  }
  if (args.json) io.stdout.write(renderDoctorJson(reports, redactor.redactText));
  return allPassed(reports) ? ExitCode.ok : ExitCode.runtime;
}
