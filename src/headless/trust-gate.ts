import type { CommonArgs } from "../args/index.js";
import type { CliIo } from "../common/cli-io.js";
import { launchHash } from "../core/config/config-trust.js";
import type { McptermConfig, ServerConfig } from "../core/config/index.js";
import { UserSettings } from "../core/config/user-settings.js";
import { UntrustedConfigError } from "../core/errors.js";
import type { SecretRedactor } from "../core/policy/redact-secrets.js";
import { settleConfigTrust } from "../core/session/config-trust-step.js";
import { terminalPerson } from "../common/terminal-person.js";
import { sanitizeOneLine } from "../core/policy/sanitize-terminal.js";

/**
 * A developer command (`tools`, `call`, `read`, `resources`, `prompts`, `doctor`, `dev`, `replay`,
 * `auth login`) starts a project's servers only once the person trusts that exact config, as a
 * session does: a cloned repository's `mcpterm tools` must not run the programs it names, or send
 * a `${VAR}` of the person's to a place it names, unseen. The trust question shows both (each
 * command line and URL, ⚠ under a secret handed over or a risky line). Trusted already
 * (`--trust-config`, or a yes before, here or in the TUI), or starting only servers typed on the
 * command line: nothing is asked. At a terminal, the question, a yes remembered; with no
 * terminal, an UntrustedConfigError (exit 2) naming each line and the flag; after a no, one saying so.
 */
export async function settleServerStart(
  config: McptermConfig,
  servers: readonly ServerConfig[],
  common: CommonArgs,
  io: CliIo,
  redactor: SecretRedactor,
): Promise<void> {
  if (!servers.some((server) => server.typed !== true)) return;
  // What is asked about is what starts: a server the config disables but the command names, and
  // a replacement given for one (`replay --server name=<command>`, with the entry's env and cwd),
  // as they will run; the yes is remembered by the hash of that. The model and embeddings
  // endpoints are not part of it: these commands send them nothing, so a yes here does not vouch
  // for them (a session asks).
  const starting = new Map(
    servers.filter((server) => server.typed !== true).map((server) => [server.name, server]),
  );
  const whole: McptermConfig = {
    ...config,
    servers: config.servers.map((server) => {
      const started = starting.get(server.name);
      return started === undefined ? server : { ...started, disabled: false };
    }),
  };
  const { baseUrl: _endpoint, ...model } = config.model;
  const { embeddings: _embeddings, ...kb } = config.kb;
  const asked: McptermConfig = { ...whole, model, kb };
  const settings = new UserSettings(io.env.MCPTERM_SETTINGS_DIR, io.env);
  // A session's yes, which took in the endpoints too, vouches for these servers as well.
  if (configTrusted([asked, whole], common, io, settings)) return;
  const trusted = await settleConfigTrust(asked, settings, {
    flag: false,
    endpoint: undefined,
    redact: redactor.redactText,
    person: terminalPerson(io),
    signal: io.signal,
  });
  if (!trusted)
    throw new UntrustedConfigError(`Nothing was started: ${config.path ?? "the config"} is not trusted.`);
}

/**
 * Whether the person vouched for this config: `--trust-config`, or the same config trusted
 * before, as one of `forms` (its servers alone, by a command's yes; with its endpoints, by a
 * session's). Servers typed on the command line, with no project file, need no vouching.
 */
function configTrusted(
  forms: readonly [McptermConfig, ...McptermConfig[]],
  common: CommonArgs,
  io: CliIo,
  settings: UserSettings,
): boolean {
  const { path } = forms[0];
  if (common.trustConfig || path === undefined) return true;
  const trusted = forms.some((form) => settings.isConfigTrusted(path, launchHash(form)));
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
