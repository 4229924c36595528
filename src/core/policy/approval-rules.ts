import { autoTiersFromProjectConfig, type ApprovalRules } from "./approval-policy.js";
import { isRiskyTier, TIERS, type Tier } from "./tiers.js";

/** What a session's rules are built from: the project's config, the user's settings, the command line. */
export interface SessionApprovalInputs {
  /** The config's `approval` block: its tiers, and whether the file named them. */
  config: { auto: readonly Tier[]; fromFile: boolean };
  /** mcpterm's own default tiers, which stand where the file names none it may use. */
  defaults: readonly Tier[];
  /** Tiers the user's own settings let run unasked. */
  settings: readonly Tier[];
  /** `--approve` (or every tier for `--yes`). */
  flagged: readonly Tier[];
  interactive: boolean;
  allowSecretArguments: boolean;
}

/**
 * The rules of a session (the TUI, one-shot mode), built in this one place. The project's file
 * may only make safe tiers run unasked: risky ones it names are dropped, and returned as
 * `ignored` for the person to be told. A list of nothing but risky tiers asked for more to run
 * unasked, not less: with them dropped it says nothing, and mcpterm's default stands, as it
 * would without the list (an empty list, `"auto": []`, is the project asking for every call).
 */
export function sessionApprovalRules(inputs: SessionApprovalInputs): {
  rules: ApprovalRules;
  ignored: Tier[];
} {
  const project = autoTiersFromProjectConfig(inputs.config.auto);
  const onlyRisky = project.auto.length === 0 && project.ignored.length > 0;
  const fromProject = inputs.config.fromFile && !onlyRisky;
  return {
    rules: {
      // Tiers the file names are the project's word; without it they are mcpterm's default.
      project: fromProject ? project.auto : [],
      defaults: fromProject ? [] : onlyRisky ? inputs.defaults : project.auto,
      settings: inputs.settings,
      flagged: inputs.flagged,
      interactive: inputs.interactive,
      allowSecretArguments: inputs.allowSecretArguments,
    },
    ignored: project.ignored,
  };
}

/** What a one-off command's rules are built from. */
export interface CommandApprovalInputs {
  /** `--yes`: every tier runs. */
  yes: boolean;
  /** Whether a person can be asked (at a terminal, in the TUI). */
  interactive: boolean;
  /** `--allow-secret-arguments` (`--yes` does not imply it). */
  allowSecretArguments?: boolean;
  /** No tier runs it on its own: a replayed call a person approved when it was recorded. */
  needsYes?: boolean;
}

/**
 * The rules of a call a command makes on a person's behalf (`mcpterm call`, `replay`, `dev`'s
 * saved calls, `/kb add` and `mcpterm kb add` fetching a page), built in this one place: safe
 * tiers run (running the command was the request), risky ones need `--yes` or a person's yes.
 */
export function commandApprovalRules(inputs: CommandApprovalInputs): ApprovalRules {
  const safe = TIERS.filter((tier) => !isRiskyTier(tier));
  return {
    project: [],
    settings: [],
    flagged: inputs.yes ? [...TIERS] : inputs.needsYes ? [] : safe,
    interactive: inputs.interactive,
    allowSecretArguments: inputs.allowSecretArguments === true,
  };
}
