import { renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isTier, type Tier } from "../policy/tiers.js";
import type { AllowanceStore, SavedAllowance } from "../policy/tool-allowances.js";
import { errorMessage } from "../errors.js";
import { readRegularFileSync } from "../files/regular-file.js";
import { ensurePrivateFolder } from "./private-folder.js";
import { settingsFindings } from "./settings-findings.js";

/**
 * The user's own settings, outside any project: what they allowed to run without asking, and
 * which project configs they trusted to start servers. A project's mcp.config.json can never
 * write here, which is why risky auto-approval and config trust live here and not there.
 *
 * A plain JSON file rather than `conf`: conf's atomic writer hooks SIGINT/SIGTERM at import and
 * re-raises them, which turns one Ctrl+C into an immediate exit before servers are stopped.
 */
export interface UserSettingsData {
  approval: { auto: Tier[] };
  /** Config file path -> hash of the stdio command lines the user agreed to start. */
  trustedConfigs: Record<string, string>;
  /** Project folder -> the tools (and servers' safe tools) the user always allows there. */
  allowances: Record<string, SavedAllowance[]>;
}

/**
 * The `telemetry` block: where live traces go (OpenTelemetry). Only here, the environment or the
 * command line say so; a project's config cannot, or a cloned repository could send your traces
 * (your prompts, when content is captured) wherever it likes. Values are as written, checked
 * where they are resolved (core/telemetry/telemetry-settings.ts).
 */
export interface UserTelemetry {
  enabled?: boolean;
  /** Base URL of an OTLP/HTTP collector (`/v1/traces` is added), or the full traces URL. */
  endpoint?: string;
  protocol?: string;
  headers?: Record<string, string>;
  serviceName?: string;
  resourceAttributes?: Record<string, string>;
  /** Prompts, answers, tool arguments and results in the spans (redacted); off by default. */
  captureContent?: boolean;
  /** How long an exit waits at most for the last spans to be sent. */
  exitFlushMs?: number;
}

export class UserSettings {
  readonly path: string;

  /**
   * `dir` overrides where the file lives (tests, MCPTERM_SETTINGS_DIR); otherwise it is the user's
   * config folder as `env` says (XDG_CONFIG_HOME, else HOME/.config). Nothing reads the process
   * environment behind the caller's back.
   */
  constructor(dir: string | undefined, env: NodeJS.ProcessEnv) {
    this.path = path.join(dir ?? defaultSettingsDir(env), "settings.json");
  }

  /** Tiers the user chose to run without asking, everywhere (may include risky ones). */
  autoApprovedTiers(): Tier[] {
    return this.read().approval.auto;
  }

  isConfigTrusted(configPath: string, launchHash: string): boolean {
    return this.read().trustedConfigs[configPath] === launchHash;
  }

  trustConfig(configPath: string, launchHash: string): void {
    const data = this.read();
    this.write({ ...data, trustedConfigs: { ...data.trustedConfigs, [configPath]: launchHash } });
  }

  /** The `telemetry` block as written; fields of the wrong type are left out. */
  telemetry(): UserTelemetry {
    const block = this.readRecord().telemetry;
    if (typeof block !== "object" || block === null) return {};
    const raw = block as Record<string, unknown>;
    const text = (key: string): string | undefined => (typeof raw[key] === "string" ? raw[key] : undefined);
    const flag = (key: string): boolean | undefined => (typeof raw[key] === "boolean" ? raw[key] : undefined);
    const entries = (key: string): Record<string, string> | undefined => stringRecord(raw[key]);
    const exitFlushMs = raw.exitFlushMs;
    const telemetry: UserTelemetry = {
      enabled: flag("enabled"),
      endpoint: text("endpoint"),
      protocol: text("protocol"),
      headers: entries("headers"),
      serviceName: text("serviceName"),
      resourceAttributes: entries("resourceAttributes"),
      captureContent: flag("captureContent"),
      exitFlushMs: typeof exitFlushMs === "number" && exitFlushMs >= 0 ? exitFlushMs : undefined,
    };
    return Object.fromEntries(Object.entries(telemetry).filter((entry) => entry[1] !== undefined));
  }

  /**
   * The "always allow in this project" rules of `project` (its folder), kept here, where a
   * project's files cannot write them. Read afresh at each check, so a revoke elsewhere counts.
   */
  allowanceStore(project: string): AllowanceStore {
    return {
      list: () => this.read().allowances[project] ?? [],
      save: (rules) => {
        const data = this.read();
        const { [project]: _old, ...others } = data.allowances;
        return this.write({
          ...data,
          allowances: rules.length > 0 ? { ...others, [project]: rules } : others,
        });
      },
    };
  }

  /**
   * Why the file is there but cannot be used (it does not parse, it is not an object, it is not
   * a regular file), in a sentence naming it; undefined when it is fine or not there at all.
   * Such settings count as empty (nothing allowed, trusted or sent), and mcpterm writes nothing
   * over them (a trust or an "always allow" then holds for this session alone), so a trailing
   * comma does not cost the rest of the file.
   */
  problem(): string | undefined {
    return this.load().problem;
  }

  /**
   * What a readable file holds that mcpterm does not use as written (a duplicate or misspelled
   * key, an unknown tier in approval.auto), one sentence each naming the file (settingsFindings).
   */
  findings(): string[] {
    const { record, text, problem } = this.load();
    if (problem !== undefined || text === undefined) return [];
    return settingsFindings(text, record).map((finding) => `${this.path}: ${finding}`);
  }

  /** The file as an object; missing or unusable settings are empty ones (see problem). */
  private readRecord(): Partial<Record<string, unknown>> {
    return this.load().record;
  }

  private load(): { record: Partial<Record<string, unknown>>; text?: string; problem?: string } {
    let text: string;
    try {
      // Not a FIFO (which would block the whole process) nor a device: a regular file or nothing.
      text = readRegularFileSync(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { record: {} };
      return { record: {}, problem: `${this.path} cannot be read (${errorMessage(error)})` };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      // Where, not what: V8 quotes the text around a bad token, and the file may hold a secret.
      const message = errorMessage(error);
      const where = /line \d+ column \d+/.exec(message)?.[0] ?? /position \d+/.exec(message)?.[0];
      return { record: {}, problem: `${this.path} is not valid JSON${where ? ` (at ${where})` : ""}` };
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      return { record: {}, problem: `${this.path} does not hold a JSON object` };
    return { record: parsed, text };
  }

  private read(): UserSettingsData {
    const record = this.readRecord();
    const approval = record.approval as { auto?: unknown } | undefined;
    const trusted = record.trustedConfigs;
    return {
      approval: { auto: Array.isArray(approval?.auto) ? approval.auto.filter(isTier) : [] },
      trustedConfigs:
        typeof trusted === "object" && trusted !== null
          ? Object.fromEntries(
              Object.entries(trusted).filter(
                (entry): entry is [string, string] => typeof entry[1] === "string",
              ),
            )
          : {},
      allowances: savedAllowances(record.allowances),
    };
  }

  /** Writes the settings; false when it would write over a file it cannot read (see problem). */
  private write(data: UserSettingsData): boolean {
    const { record, problem } = this.load();
    // Never over a file mcpterm cannot read: the session was told so at its start (problem).
    if (problem) return false;
    ensurePrivateFolder(path.dirname(this.path));
    const temporary = `${this.path}.${process.pid}.tmp`;
    // What mcpterm does not manage (the telemetry block) stays as the person wrote it.
    const { approval: _approval, trustedConfigs: _trusted, allowances: _allowances, ...kept } = record;
    writeFileSync(temporary, `${JSON.stringify({ ...kept, ...data }, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.path);
    return true;
  }
}

/** The user's settings folder: MCPTERM_SETTINGS_DIR, else XDG_CONFIG_HOME/mcpterm, else ~/.config/mcpterm. */
export function userSettingsDir(env: NodeJS.ProcessEnv): string {
  return env.MCPTERM_SETTINGS_DIR || defaultSettingsDir(env);
}

function defaultSettingsDir(env: NodeJS.ProcessEnv): string {
  // os.homedir() only when the environment has no HOME at all (it reads the password database).
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), ".config");
  return path.join(base, "mcpterm");
}

/** An object of string values, or undefined; entries that are not strings are left out. */
function stringRecord(value: unknown): Record<string, string> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
}

/** The saved rules as the file has them; an entry that is not one is left out (a hand edit gone wrong). */
function savedAllowances(value: unknown): Record<string, SavedAllowance[]> {
  if (typeof value !== "object" || value === null) return {};
  const projects: Record<string, SavedAllowance[]> = {};
  for (const [project, rules] of Object.entries(value as Record<string, unknown>)) {
    if (!Array.isArray(rules)) continue;
    projects[project] = rules.flatMap((rule): SavedAllowance[] => {
      const entry = (typeof rule === "object" && rule !== null ? rule : {}) as Record<string, unknown>;
      const { server, tool, hash, tier, launch, savedAt } = entry;
      if (typeof server !== "string" || typeof savedAt !== "string") return [];
      if (tool !== undefined && (typeof tool !== "string" || typeof hash !== "string")) return [];
      return [
        {
          server,
          savedAt,
          ...(typeof tool === "string" ? { tool } : {}),
          ...(typeof hash === "string" ? { hash } : {}),
          ...(typeof tier === "string" && isTier(tier) ? { tier } : {}),
          ...(typeof launch === "string" ? { launch } : {}),
        },
      ];
    });
  }
  return projects;
}
