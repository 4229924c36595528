import { readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isTier, type Tier } from "../policy/tiers.js";
import type { AllowanceStore, SavedAllowance } from "../policy/tool-allowances.js";
import { ensurePrivateFolder } from "./private-folder.js";

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
        this.write({ ...data, allowances: rules.length > 0 ? { ...others, [project]: rules } : others });
      },
    };
  }

  private read(): UserSettingsData {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.path, "utf8"));
    } catch {
      // Missing or unreadable settings mean "nothing allowed, nothing trusted" — the safe default.
      return { approval: { auto: [] }, trustedConfigs: {}, allowances: {} };
    }
    const record = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Partial<
      Record<string, unknown>
    >;
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

  private write(data: UserSettingsData): void {
    ensurePrivateFolder(path.dirname(this.path));
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.path);
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

/** The saved rules as the file has them; an entry that is not one is left out (a hand edit gone wrong). */
function savedAllowances(value: unknown): Record<string, SavedAllowance[]> {
  if (typeof value !== "object" || value === null) return {};
  const projects: Record<string, SavedAllowance[]> = {};
  for (const [project, rules] of Object.entries(value as Record<string, unknown>)) {
    if (!Array.isArray(rules)) continue;
    projects[project] = rules.flatMap((rule): SavedAllowance[] => {
      const entry = (typeof rule === "object" && rule !== null ? rule : {}) as Record<string, unknown>;
      const { server, tool, hash, tier, savedAt } = entry;
      if (typeof server !== "string" || typeof savedAt !== "string") return [];
      if (tool !== undefined && (typeof tool !== "string" || typeof hash !== "string")) return [];
      return [
        {
          server,
          savedAt,
          ...(typeof tool === "string" ? { tool } : {}),
          ...(typeof hash === "string" ? { hash } : {}),
          ...(typeof tier === "string" && isTier(tier) ? { tier } : {}),
        },
      ];
    });
  }
  return projects;
}
