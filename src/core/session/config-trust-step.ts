import { launchHash, serversNeedingTrust, trustLine } from "../config/config-trust.js";
import type { McptermConfig } from "../config/index.js";
import type { UserSettings } from "../config/user-settings.js";
import { ConfigError } from "../errors.js";

/** What a person is asked to trust: the config file and one line per thing it would do. */
export interface TrustQuestion {
  configPath: string;
  /** What the config wants, e.g. "wants to start or connect to 2 servers". */
  summary: string;
  lines: string[];
}

/** The project's `model.baseUrl` when it is the endpoint in use and the user's API key would go there. */
export interface KeyedEndpoint {
  url: string;
  /** Where the key comes from, e.g. "OPENAI_API_KEY". */
  keySource: string;
}

/**
 * Decides whether this run may do what the project's config asks: start or contact its servers
 * (a cloned repository must not be able to run programs, or send environment secrets in headers
 * to a URL of its choosing, just because mcpterm was started in it), and send the user's API key
 * to the model endpoint it names. Trusted: with --trust-config, when there is nothing to trust,
 * or when the person trusted this exact config before. Otherwise the person is asked (and a yes
 * remembered); with nobody to ask it is a ConfigError naming each line and the flag.
 */
export async function settleConfigTrust(
  config: McptermConfig,
  settings: UserSettings,
  options: {
    flag: boolean;
    endpoint: KeyedEndpoint | undefined;
    ask?: (question: TrustQuestion) => Promise<boolean>;
  },
): Promise<boolean> {
  const servers = serversNeedingTrust(config);
  const { endpoint } = options;
  if (options.flag || !config.path || (servers.length === 0 && !endpoint)) return true;
  const hash = launchHash(config);
  if (settings.isConfigTrusted(config.path, hash)) return true;
  const serverLines = servers.map(trustLine);
  const serverPart =
    servers.length > 0
      ? `start or connect to ${servers.length} server${servers.length === 1 ? "" : "s"}`
      : undefined;
  if (!options.ask) {
    const wants = [
      ...(serverPart ? [`${serverPart} (${serverLines.join("; ")})`] : []),
      ...(endpoint
        ? [`send your API key (${endpoint.keySource}) to ${endpoint.url}, its model.baseUrl`]
        : []),
    ];
    throw new ConfigError(
      `${config.path} would ${wants.join(" and ")}; check them and rerun with --trust-config to allow it.`,
    );
  }
  const endpointPart = endpoint ? "send your API key to the model endpoint it names" : undefined;
  const trusted = await options.ask({
    configPath: config.path,
    summary: `wants to ${[serverPart, endpointPart].filter((part) => part !== undefined).join(" and ")}`,
    lines: [
      ...serverLines,
      ...(endpoint
        ? [
            `model endpoint: ${endpoint.url} (model.baseUrl) would receive your API key from ${endpoint.keySource}`,
          ]
        : []),
    ],
  });
  if (trusted) settings.trustConfig(config.path, hash);
  return trusted;
}
