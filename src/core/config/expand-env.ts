/** `${NAME}` or `${NAME:-default}`, the forms Claude Code and docker compose users already write. */
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface EnvExpansion {
  value: string;
  /** Variables used without a default that are not set, in order of first use. */
  missing: string[];
  /** Variables whose (non-empty) value from the environment went into `value`, in order of first use. */
  used: string[];
  /** Each value from the environment as it went in, at the offset of its `${…}` in the text given. */
  placed: Array<{ value: string; offset: number }>;
}

/**
 * Replaces `${NAME}` and `${NAME:-default}` with values from `env`. As in the shell, the default
 * applies when the variable is unset or empty; an unset variable without a default is reported
 * in `missing` (and expands to "") so the caller can fail just the one server that needs it.
 */
export function expandEnv(
  text: string,
  env: NodeJS.ProcessEnv,
  /** Where, by offset into `text`, a value is percent-encoded (see urlUserinfoSpan); nowhere by default. */
  encodedAt: (offset: number) => boolean = () => false,
): EnvExpansion {
  const missing: string[] = [];
  const used: string[] = [];
  const placed: EnvExpansion["placed"] = [];
  const value = text.replace(
    VARIABLE,
    (_match, name: string, fallback: string | undefined, offset: number) => {
      const current = env[name];
      if (current === undefined && fallback === undefined && !missing.includes(name)) missing.push(name);
      if (current !== undefined && current !== "") {
        if (!used.includes(name)) used.push(name);
        placed.push({ value: current, offset });
      }
      const replacement = current === undefined || current === "" ? (fallback ?? "") : current;
      return encodedAt(offset) ? encodeURIComponent(replacement) : replacement;
    },
  );
  return { value, missing, used, placed };
}
