import type { Argv } from "yargs";
import type { CommandContext } from "../shared/command-context.js";
import type { GlobalOptions } from "../shared/global-options.js";
import {
  collectorUrl,
  commonArgs,
  parseTiers,
  positiveWholeNumber,
  resumeChoice,
} from "../shared/option-values.js";
import {
  DEFAULT_MAX_STEPS,
  MAX_STEPS_LIMIT,
  type OneShotArgs,
  type SessionArgs,
} from "../shared/cli-args.js";
import { TIERS } from "../../core/policy/tiers.js";

/** `mcpterm` and `mcpterm -p <prompt>` (yargs's `$0`): the TUI, or a one-shot answer. */
export function interactiveCommand(
  parser: Argv<GlobalOptions>,
  { choose }: CommandContext,
): Argv<GlobalOptions> {
  return parser.command(
    "$0",
    "interactive assistant, or a one-shot answer with --prompt",
    (command) =>
      command
        .option("prompt", {
          alias: "p",
          type: "string",
          describe: 'one-shot: the question (text piped in goes with it), or "-" to read it from stdin',
        })
        .option("model", { type: "string", describe: "model name (env MCPTERM_MODEL)" })
        .option("base-url", {
          type: "string",
          describe: "OpenAI-compatible base URL (env OPENAI_BASE_URL)",
        })
        .option("api-key", { type: "string", describe: "API key (env OPENAI_API_KEY)" })
        .option("context-window", {
          type: "number",
          describe: "the model's context window in tokens (env MCPTERM_CONTEXT_WINDOW)",
        })
        .option("temperature", {
          type: "number",
          describe: "sampling temperature sent with each request (env MCPTERM_TEMPERATURE)",
        })
        .option("max-tokens", {
          type: "number",
          describe: "longest answer in tokens, sent with each request (env MCPTERM_MAX_TOKENS)",
        })
        .option("approve", {
          type: "string",
          describe: `tiers that run without asking (one-shot): ${TIERS.join(",")}`,
          coerce: parseTiers,
        })
        .option("yes", { type: "boolean", describe: "approve every tier (one-shot)" })
        .option("allow-secret-arguments", {
          type: "boolean",
          describe: "let calls send secrets found in their arguments (one-shot; --yes does not)",
        })
        .option("allow-sampling", {
          type: "boolean",
          describe: "answer servers' sampling requests with the model (one-shot; --yes does not)",
        })
        .option("root", {
          type: "string",
          array: true,
          describe: "also offer this folder to servers as an MCP root (repeatable)",
        })
        .option("output", {
          choices: ["text", "json", "stream-json"] as const,
          describe: "one-shot output (default text)",
        })
        .option("trace", { type: "string", describe: "also write the trace to this .jsonl file" })
        .option("otlp-endpoint", {
          type: "string",
          describe:
            "export traces live to this OpenTelemetry collector (OTLP/HTTP, e.g. http://localhost:4318)",
        })
        .option("trust-config", {
          type: "boolean",
          default: false,
          describe: "allow this run to start the servers of the project's mcp.config.json",
        })
        .option("max-steps", {
          type: "number",
          default: DEFAULT_MAX_STEPS,
          describe: "model steps per turn",
        })
        .option("continue", {
          type: "boolean",
          describe: "go on with the latest saved session of this folder",
        })
        .option("resume", {
          type: "string",
          describe: "go on with saved session [id]; without one, pick it from a list (TUI)",
        })
        .conflicts("continue", "resume")
        .check((parsed) => {
          positiveWholeNumber("--max-steps", parsed.maxSteps, MAX_STEPS_LIMIT);
          return collectorUrl(parsed.otlpEndpoint);
        }),
    (parsed) => {
      const session: SessionArgs = {
        common: commonArgs(parsed),
        modelArgs: {
          model: parsed.model,
          baseUrl: parsed.baseUrl,
          apiKey: parsed.apiKey,
          ...(parsed.contextWindow === undefined ? {} : { contextWindow: parsed.contextWindow }),
          ...(parsed.temperature === undefined ? {} : { temperature: parsed.temperature }),
          ...(parsed.maxTokens === undefined ? {} : { maxTokens: parsed.maxTokens }),
        },
        maxSteps: parsed.maxSteps,
        trace: parsed.trace,
        otlpEndpoint: parsed.otlpEndpoint,
        // yargs reads --no-kb as the negation of --kb <dir>.
        kb: (parsed.kb as unknown) !== false,
        roots: (parsed.root ?? []).map(String),
        resume: resumeChoice(parsed.continue, parsed.resume),
      };
      const oneShot: OneShotArgs = {
        output: parsed.output ?? "text",
        approve: parsed.approve ?? [],
        yes: parsed.yes === true,
        allowSecretArguments: parsed.allowSecretArguments === true,
        allowSampling: parsed.allowSampling === true,
      };
      if (parsed.prompt === undefined) {
        const given = [
          parsed.output === undefined ? undefined : "--output",
          parsed.approve === undefined ? undefined : "--approve",
          parsed.yes === undefined ? undefined : "--yes",
          parsed.allowSecretArguments === undefined ? undefined : "--allow-secret-arguments",
          parsed.allowSampling === undefined ? undefined : "--allow-sampling",
        ].filter((flag) => flag !== undefined);
        choose({ command: "interactive", ...session, oneShot, oneShotFlags: given });
        return;
      }
      if (parsed.prompt.trim() === "") throw new Error('--prompt needs text, or "-" to read it from stdin');
      choose({ command: "prompt", ...session, ...oneShot, prompt: parsed.prompt });
    },
  );
}
