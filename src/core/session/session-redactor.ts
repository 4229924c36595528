import { configSecrets } from "../config/config-secrets.js";
import type { McptermConfig } from "../config/index.js";
import { SecretRedactor } from "../policy/redact-secrets.js";

/**
 * The redactor for anything that runs over a project's config: the secret rule sets plus the
 * values this process knows to be secret (the model API keys, secret-looking environment values,
 * and the secrets the config hands its servers in env and headers).
 */
export function sessionRedactor(
  config: McptermConfig,
  env: NodeJS.ProcessEnv,
  apiKeys: ReadonlyArray<string | undefined> = [],
): SecretRedactor {
  return SecretRedactor.forSession(
    [...apiKeys, env.OPENAI_API_KEY, env.ARK_API_KEY],
    env,
    configSecrets(config),
  );
}
