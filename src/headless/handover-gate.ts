import type { CommonArgs } from "../args/index.js";
import type { CliIo } from "../common/cli-io.js";
import { askYesNo } from "../common/terminal-question.js";
import { launchHash } from "../core/config/config-trust.js";
import { handoverLines, handoverRefusal, serverHandovers } from "../core/config/env-handover.js";
import type { McptermConfig, ServerConfig } from "../core/config/index.js";
import { UserSettings } from "../core/config/user-settings.js";
import { UsageError } from "../core/errors.js";
import { sanitizeForTerminal, sanitizeOneLine } from "../core/policy/sanitize-terminal.js";

/**
 * The developer commands start a project's servers without the trust question — running them
 * is the request — but a `${VAR}` of the user's environment going to a place a project file
 * names (a header to its URL, an ID token to its identity provider, a client secret to its
 * issuer) needs the same yes as anywhere else: `--trust-config`, the config trusted whole
 * before (in the TUI), or a y at the terminal. Otherwise a UsageError (exit 2), one sentence
 * naming each variable and where it would go, before anything starts.
 */
export async function settleHandover(
  config: McptermConfig,
  servers: readonly ServerConfig[],
  common: CommonArgs,
  io: CliIo,
): Promise<void> {
  const given = serverHandovers(servers);
  if (given.length === 0 || configTrusted(config, common, io)) return;
  if (io.stdin.isTTY) {
    io.stderr.write(
      sanitizeForTerminal(
        `${config.path} would send values from your environment to places it names:\n` +
          handoverLines(given)
            .map((line) => `  ${line}\n`)
            .join(""),
      ),
    );
    if (await askYesNo(io, "Send them? [y/N] ")) return;
    throw new UsageError(
      `Nothing was sent: the servers of ${config.path} were not started; rerun with --trust-config to allow it.`,
    );
  }
  throw new UsageError(handoverRefusal(config.path ?? "the config", given));
}

/**
 * Whether the person vouched for this config: `--trust-config`, or the same config trusted whole
 * before (in the TUI). Servers typed on the command line, with no project file, need no vouching.
 */
export function configTrusted(config: McptermConfig, common: CommonArgs, io: CliIo): boolean {
  if (common.trustConfig || config.path === undefined) return true;
  const settings = new UserSettings(io.env.MCPTERM_SETTINGS_DIR, io.env);
  const trusted = settings.isConfigTrusted(config.path, launchHash(config));
  if (trusted || toldUnusable.has(io)) return trusted;
  // A trust given before is in a file mcpterm cannot read now: said, or the refusal has no why.
  const unusable = settings.problem();
  if (unusable) {
    toldUnusable.add(io);
    io.stderr.write(
      `warning: ${sanitizeOneLine(unusable)}: your settings count as empty until it is fixed, so no config you trusted before is trusted now.\n`,
    );
  }
  return trusted;
}

/** The commands' outputs already told of an unreadable settings file (once per run). */
const toldUnusable = new WeakSet<CliIo>();

/**
 * The servers as an untrusted config may start them: without its `tiers` and `trust: true`,
 * which lower a tool's tier (README: they are part of what you trust). A cloned repository
 * could otherwise make its write tool `read_only` and have `call`, `doctor` and `replay` run it
 * unasked. With a note to say so when the config had any, or undefined.
 */
export function withoutUntrustedPowers(
  config: McptermConfig,
  servers: readonly ServerConfig[],
  common: CommonArgs,
  io: CliIo,
): { servers: ServerConfig[]; note: string | undefined } {
  if (configTrusted(config, common, io)) return { servers: [...servers], note: undefined };
  const powered = servers.filter((server) => server.trust || Object.keys(server.tiers).length > 0);
  const note =
    powered.length === 0
      ? undefined
      : `${config.path ?? "the config"} is not trusted, so the "tiers" and "trust" of ${powered.map((server) => `"${server.name}"`).join(", ")} are not applied; rerun with --trust-config to apply them.`;
  return { servers: servers.map((server) => ({ ...server, tiers: {}, trust: false })), note };
}
