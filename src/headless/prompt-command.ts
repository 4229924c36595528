import type { CliArgs } from "../args.js";
import type { Approver } from "../core/agent/approver.js";
import type { AgentEvent, ProposedToolCall } from "../core/agent/events.js";
import { CompositeToolHost } from "../core/agent/composite-tool-host.js";
import { KnowledgeToolHost } from "../core/agent/knowledge-tool-host.js";
import { Session } from "../core/agent/session.js";
import { openSessionServices } from "../core/agent/session-services.js";
import { resolveModelSettings } from "../core/config/index.js";
import { ExitCode, UsageError } from "../core/errors.js";
import { createOpenAiChatModel } from "../core/llm/openai-chat-model.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { TIERS } from "../core/policy/tiers.js";
import { redactedLine } from "../core/trace/redact-record.js";
import { readAll, type CliIo } from "../common/cli-io.js";
import { UserSettings } from "../core/config/user-settings.js";
import { loadProjectConfig } from "../common/load-project-config.js";
import { requireConfigTrust } from "./require-config-trust.js";
import { openFreshKnowledge } from "../common/open-knowledge.js";
import { progressLine } from "./progress-lines.js";
import { emptySummary, summarize } from "./run-summary.js";

type PromptArgs = Extract<CliArgs, { command: "prompt" }>;

/**
 * `mcpterm -p`: one turn, no person to ask. The answer goes to stdout, progress and warnings
 * to stderr; the exit code says how it went (0 done, 1 failed, 3 a call was denied).
 */
export async function runPromptCommand(args: PromptArgs, io: CliIo): Promise<ExitCode> {
  const prompt = args.prompt === "-" ? (await readAll(io.stdin)).trim() : args.prompt;
  if (prompt === "")
    throw new UsageError("The prompt read from stdin is empty; pipe in some text or pass -p <text>.");

  const config = await loadProjectConfig(args.common, io);
  const settings = resolveModelSettings({ flags: args.modelArgs, env: io.env, config });
  const warn = (message: string): void => void io.stderr.write(`warning: ${sanitizeForTerminal(message)}\n`);

  const userSettings = new UserSettings(io.env.MCPTERM_SETTINGS_DIR);
  requireConfigTrust(config, userSettings, args.trustConfig);
  const services = openSessionServices({
    config,
    servers: config.servers,
    userSettings,
    apiKeys: [settings.apiKey],
    env: io.env,
    cwd: io.cwd,
    traceFile: args.trace,
    model: settings.model,
  });
  const { manager, mcpTools, redact, trace } = services;
  if (services.ignoredAutoTiers.length > 0) {
    warn(
      `approval.auto in ${config.path ?? "the config"} lists ${services.ignoredAutoTiers.join(", ")}; risky tiers are only allowed from the command line (--approve) or your own settings.`,
    );
  }
  try {
    await manager.start();
    trace.servers(manager.servers());
    for (const server of manager.servers()) {
      if (server.status === "failed")
        warn(`server "${server.name}" is unavailable: ${server.error ?? "unknown error"}`);
    }

    const knowledge =
      args.kb && config.kb.enabled ? await openFreshKnowledge(args.common, config, io.cwd) : undefined;
    const { topK } = config.kb;
    const session = new Session({
      model: createOpenAiChatModel(settings),
      tools: knowledge
        ? new CompositeToolHost([new KnowledgeToolHost(knowledge.kb, redact), mcpTools])
        : mcpTools,
      approval: { auto: services.autoTiers, flagged: args.yes ? [...TIERS] : args.approve },
      maxSteps: args.maxSteps,
      cwd: io.cwd,
      ...(knowledge
        ? { knowledge: { search: (query: string) => knowledge.kb.search(query, { k: topK }) } }
        : {}),
      sink: trace,
      redactText: redact,
    });
    return await printEvents(session.run(prompt, { approve: denyWithoutPerson, signal: io.signal }), args, {
      ...io,
      redact,
    });
  } finally {
    await services.close();
  }
}

/** One-shot mode has nobody to ask, so whatever policy did not allow is denied. */
const denyWithoutPerson: Approver = ({ tool }) =>
  Promise.resolve({
    approved: false,
    by: "policy",
    reason: `mcpterm is running non-interactively and ${tool.tier} calls need a person's approval (the user can allow them with --approve ${tool.tier})`,
  });

/** Everything printed passes through `redact`, so secrets never reach the terminal or a pipe. */
async function printEvents(
  events: AsyncIterable<AgentEvent>,
  args: PromptArgs,
  io: CliIo & { redact: (text: string) => string },
): Promise<ExitCode> {
  const calls = new Map<string, ProposedToolCall>();
  let summary = emptySummary();
  let exitCode: ExitCode = ExitCode.ok;
  let endsWithNewline = true;

  for await (const event of events) {
    summary = summarize(summary, event);
    if (event.type === "tool_call_proposed") calls.set(event.call.id, event.call);
    if (args.output === "stream-json") io.stdout.write(`${redactedLine(event, io.redact)}\n`);
    if (args.output === "text") {
      if (event.type === "text_delta") {
        const text = io.redact(sanitizeForTerminal(event.delta));
        io.stdout.write(text);
        if (text) endsWithNewline = text.endsWith("\n");
      }
      const line = progressLine(event, calls);
      if (line) io.stderr.write(`${io.redact(line)}\n`);
    }
    if (event.type === "error") exitCode = event.exitCode as ExitCode;
    if (event.type === "turn_end") {
      if (event.reason === "max_steps" || event.reason === "loop_detected" || event.reason === "aborted") {
        exitCode = ExitCode.runtime;
      } else if (event.reason === "completed" && event.deniedCalls > 0) exitCode = ExitCode.denied;
    }
  }

  if (args.output === "text" && !endsWithNewline) io.stdout.write("\n");
  if (args.output === "json") {
    io.stdout.write(`${JSON.stringify(JSON.parse(redactedLine(summary, io.redact)), null, 2)}\n`);
  }
  if (summary.error) io.stderr.write(`mcpterm: ${sanitizeForTerminal(summary.error.message)}\n`);
  if (summary.reason === "aborted") io.stderr.write("mcpterm: interrupted.\n");
  return exitCode;
}
