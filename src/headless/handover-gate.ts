import type { CommonArgs } from "../args/index.js";
import type { CliIo } from "../common/cli-io.js";
import { askYesNo } from "../common/terminal-question.js";
import { launchHash } from "../core/config/config-trust.js";
import { handoverLines, handoverRefusal, serverHandovers } from "../core/config/env-handover.js";
import type { McptermConfig, ServerConfig } from "../core/config/index.js";
import { UserSettings } from "../core/config/user-settings.js";
import { UsageError } from "../core/errors.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";

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
  if (given.length === 0 || common.trustConfig || config.path === undefined) return;
  if (new UserSettings(io.env.MCPTERM_SETTINGS_DIR, io.env).isConfigTrusted(config.path, launchHash(config)))
    return;
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
  throw new UsageError(handoverRefusal(config.path, given));
}
