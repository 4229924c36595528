import type { CliIo } from "../common/cli-io.js";
import { terminalPerson } from "../common/terminal-person.js";
import { decideApproval } from "../core/policy/approval-policy.js";
import { commandApprovalRules } from "../core/policy/approval-rules.js";
import { describeArgumentSecrets, type ArgumentSecret } from "../core/policy/argument-secrets.js";
import type { Tier } from "../core/policy/tiers.js";

/** One call a command was told to make, as the approval policy sees it. */
export interface CallToApprove {
  server: string;
  tool: string;
  tier: Tier;
  tierReason: string;
  arguments: Record<string, unknown>;
  secrets: ArgumentSecret[];
  /** No tier runs it on its own: a replayed call a person approved when it was recorded. */
  needsYes?: boolean;
}

export interface ApprovalFlags {
  /** `--yes`: risky tiers run. */
  yes: boolean;
  /** `--allow-secret-arguments`: arguments may carry a secret (`--yes` does not imply it). */
  allowSecretArguments: boolean;
  /** Whether a person may be asked at the terminal (never through piped stdin). */
  ask: boolean;
}

/** Why a call was not run, for the caller to say, and the flag that would run it. */
export interface CallRefusal {
  /** `: its arguments hold a secret (…)` or ` is dangerous`, to follow the call's name. */
  what: string;
  /** `pass --yes` or `pass --allow-secret-arguments`. */
  how: string;
  /** Whether the person was asked at the terminal (and said no); without one, nobody was. */
  asked: boolean;
}

/** What would run a refused call: a y, where the person was asked, or the flag. */
export function refusalRemedy(refusal: CallRefusal): string {
  return refusal.asked ? `answer y at the prompt or ${refusal.how}` : refusal.how;
}

/**
 * The approval of a call a command makes on a person's behalf (`mcpterm call`, `mcpterm replay`,
 * the saved calls of `mcpterm dev`), decided by the one policy over the command's rules: a safe
 * tier runs; a risky one needs `--yes` or a y at the terminal; arguments that hold a secret need
 * `--allow-secret-arguments` or a y, whatever the tier. Undefined when the call may run.
 */
export async function approveCall(
  io: CliIo,
  call: CallToApprove,
  flags: ApprovalFlags,
): Promise<CallRefusal | undefined> {
  const person = terminalPerson(io);
  const verdict = decideApproval(
    { tier: call.tier, allowance: { state: "not_allowed" }, secrets: call.secrets },
    commandApprovalRules({
      yes: flags.yes,
      interactive: flags.ask && person.absent === undefined,
      allowSecretArguments: flags.allowSecretArguments,
      ...(call.needsYes ? { needsYes: true } : {}),
    }),
  );
  if (verdict.action === "allow") return undefined;
  if (verdict.action === "ask") {
    const answer = await person.approveCall(
      {
        callId: `${call.server}/${call.tool}`,
        server: call.server,
        tool: call.tool,
        tier: call.tier,
        tierReason: call.tierReason,
        reason: verdict.reason,
        arguments: call.arguments,
        notes: [],
      },
      io.signal,
    );
    if (answer.approved) return undefined;
  }
  const secret = call.secrets.length > 0;
  return {
    what: secret
      ? `: its arguments hold a secret (${describeArgumentSecrets(call.secrets)})`
      : ` is ${call.tier}`,
    how: secret ? "pass --allow-secret-arguments" : "pass --yes",
    asked: verdict.action === "ask",
  };
}
