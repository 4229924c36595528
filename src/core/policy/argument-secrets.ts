import type { SecretRedactor } from "./redact-secrets.js";
import { isSecretName } from "./secret-patterns.js";

/** A secret found in a call's arguments: where, and what kind (the rule that matched). */
export interface ArgumentSecret {
  /** A path into the arguments, e.g. `body` or `messages[2].text`. */
  path: string;
  rule: string;
}

/** Shorter values under a secret-looking name are too short to be a credential worth asking about. */
const NAMED_SECRET_MIN_LENGTH = 8;

/**
 * Every secret a call would send out, found with the same rules used on results (secretlint's
 * preset, our patterns, the session's known secret values) plus string values under a name that
 * says "secret" (`password`, `api_key`, `token`, …). One finding per argument and rule.
 */
export async function findArgumentSecrets(
  args: Record<string, unknown>,
  redactor: SecretRedactor,
): Promise<ArgumentSecret[]> {
  const strings: Array<{ path: string; key: string | undefined; text: string }> = [];
  collectStrings(args, "", undefined, strings);
  const found: ArgumentSecret[] = [];
  for (const { path, key, text } of strings) {
    const rules = new Set((await redactor.redact(text)).rules);
    if (rules.size === 0 && key !== undefined && isSecretName(key) && text.length >= NAMED_SECRET_MIN_LENGTH)
      rules.add("secret-named-argument");
    for (const rule of rules) found.push({ path, rule });
  }
  return found;
}

/** How a finding reads to a person: `body (openai-api-key)`. */
export function describeArgumentSecrets(secrets: readonly ArgumentSecret[]): string {
  return secrets.map((secret) => `${secret.path || "(the arguments)"} (${secret.rule})`).join(", ");
}

function collectStrings(
  value: unknown,
  path: string,
  key: string | undefined,
  into: Array<{ path: string; key: string | undefined; text: string }>,
): void {
  if (typeof value === "string") {
    into.push({ path, key, text: value });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      collectStrings(item, `${path}[${index}]`, key, into);
    });
  } else if (typeof value === "object" && value !== null) {
    for (const [name, item] of Object.entries(value)) {
      collectStrings(item, path ? `${path}.${name}` : name, name, into);
    }
  }
}
