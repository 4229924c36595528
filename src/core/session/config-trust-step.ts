import {
  embeddingsEntry,
  endpointEntry,
  launchHash,
  serversNeedingTrust,
  trustEntry,
  trustSummary,
  untrustedConfigMessage,
  type KeyedEndpoint,
} from "../config/config-trust.js";
import type { McptermConfig } from "../config/index.js";
import type { UserSettings } from "../config/user-settings.js";
import { UntrustedConfigError } from "../errors.js";
import { revealControls } from "../policy/sanitize-terminal.js";
import type { Person } from "../person/person.js";

/**
 * Decides whether this run may do what the project's config asks: start or contact its servers
 * (a cloned repository must not be able to run programs, or send environment secrets in headers
 * to a URL of its choosing, just because mcpterm was started in it), and send the user's API key
 * to the model endpoint it names. Trusted: with --trust-config, when there is nothing to trust,
 * or when the person trusted this exact config before. Otherwise the person is asked (and a yes
 * remembered); with nobody to ask it is an UntrustedConfigError naming each line and the flag.
 */
export async function settleConfigTrust(
  config: McptermConfig,
  settings: UserSettings,
  options: {
    flag: boolean;
    endpoint: KeyedEndpoint | undefined;
    /**
     * The project's embeddings endpoint off this machine (embeddingsNeedingTrust): shown and
     * trusted with the rest, but no reason to ask on its own (unused, it costs only recall).
     */
    embeddings?: string | undefined;
    /** Masks secrets in what is shown (expanded `${VAR}`s); a line shows where one is handed over. */
    redact: (text: string) => string;
    /** Who is asked; with nobody there, an untrusted config is refused with the flag that trusts it. */
    person: Person;
    signal?: AbortSignal;
  },
): Promise<boolean> {
  const servers = serversNeedingTrust(config);
  const { endpoint, embeddings } = options;
  if (options.flag || !config.path || (servers.length === 0 && !endpoint)) return true;
  const hash = launchHash(config);
  if (settings.isConfigTrusted(config.path, hash)) return true;
  const { redact } = options;
  const entries = servers.map((server) => trustEntry(server, redact));
  if (options.person.absent !== undefined)
    throw new UntrustedConfigError(
      redact(untrustedConfigMessage(config.path, entries, endpoint, embeddings)),
    );
  const trusted = await options.person.trustConfig(
    {
      // Written out, as the lines are: stripped where it is drawn, a control could hide more.
      configPath: revealControls(config.path),
      summary: trustSummary(servers.length, endpoint, embeddings),
      entries: [
        ...entries,
        ...(endpoint ? [endpointEntry({ ...endpoint, url: redact(endpoint.url) })] : []),
        ...(embeddings ? [embeddingsEntry(redact(embeddings))] : []),
      ],
    },
    options.signal ?? new AbortController().signal,
  );
  if (trusted) settings.trustConfig(config.path, hash);
  return trusted;
}
