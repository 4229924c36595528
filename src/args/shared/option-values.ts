import { PROTOCOL_SETTINGS } from "../../core/config/config-types.js";
import type { NamedLaunch } from "../../core/config/ad-hoc-server.js";
import { isHttpUrl } from "../../core/config/http-url.js";
import { TIERS, isTier, type Tier } from "../../core/policy/tiers.js";
import type { CommonArgs, ResumeChoice } from "./cli-args.js";

export { MAX_TIMER_MS } from "../../core/max-timer.js";

/** --otlp-endpoint is checked with the other flags, before a config is read or a server started. */
export function collectorUrl(value: unknown): true {
  if (value === undefined) return true;
  const text = typeof value === "string" ? value : "(none)";
  if (!isHttpUrl(text))
    throw new Error(
      `--otlp-endpoint ${text} is not an http:// or https:// URL; give the collector's OTLP/HTTP address, e.g. http://localhost:4318.`,
    );
  return true;
}

/** A yargs check: the option, when given, is a whole number of at least 1 (NaN from "abc" included). */
export function positiveWholeNumber(flag: string, value: unknown, max = Number.MAX_SAFE_INTEGER): true {
  // --help skips defaults, so an absent value is fine here.
  if (
    value !== undefined &&
    (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max)
  ) {
    const range = max === Number.MAX_SAFE_INTEGER ? "of at least 1" : `from 1 to ${max}`;
    // yargs reads "abc" as NaN: the typed word is gone, so say what it was not.
    const got = Number.isNaN(value)
      ? "something that is not a number"
      : typeof value === "number"
        ? String(value)
        : JSON.stringify(value);
    throw new Error(`${flag} must be a whole number ${range}, got ${got}`);
  }
  return true;
}

/** The global options (and --trust-config, and a typed server) as every command passes them on. */
export function commonArgs(
  parsed: {
    config?: string | undefined;
    kb?: unknown;
    debug?: boolean | undefined;
    protocol?: string | undefined;
    trustConfig?: boolean | undefined;
  },
  target?: NamedLaunch,
): CommonArgs {
  const protocol = PROTOCOL_SETTINGS.find((setting) => setting === parsed.protocol);
  return {
    config: parsed.config,
    kbDir: typeof parsed.kb === "string" ? parsed.kb : undefined,
    debug: parsed.debug === true,
    ...(protocol ? { protocol } : {}),
    trustConfig: parsed.trustConfig === true,
    ...(target ? { target } : {}),
  };
}

/** --continue, or --resume with an id or without one (then the TUI offers a list). */
export function resumeChoice(
  latest: boolean | undefined,
  resume: string | undefined,
): ResumeChoice | undefined {
  if (latest === true) return { kind: "latest" };
  if (resume === undefined) return undefined;
  return resume.trim() === "" ? { kind: "pick" } : { kind: "id", id: resume.trim() };
}

/** `--approve a,b`; given more than once, the tiers of every one count. */
export function parseTiers(list: string | readonly string[] | undefined): Tier[] {
  if (list === undefined) return [];
  const names = (typeof list === "string" ? [list] : list)
    .flatMap((item) => item.split(","))
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const unknown = names.filter((name) => !isTier(name));
  if (unknown.length > 0) {
    throw new Error(`--approve got unknown tier "${unknown.join(", ")}"; use any of ${TIERS.join(", ")}`);
  }
  return names.filter(isTier);
}
