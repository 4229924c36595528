import type { SessionArgs } from "../args/index.js";
import type { SessionRequest } from "../core/session/open-session.js";
import type { Tier } from "../core/policy/tiers.js";

/** The session the TUI or one-shot mode asks the core for, from the flags they share. */
export function sessionRequest(
  args: SessionArgs,
  mode: {
    approve: readonly Tier[];
    interactive: boolean;
    allowSecretArguments: boolean;
    allowSampling: boolean;
  },
): SessionRequest {
  return {
    configPath: args.common.config,
    kbDir: args.common.kbDir,
    kb: args.kb,
    model: args.modelArgs,
    maxSteps: args.maxSteps,
    traceFile: args.trace,
    otlpEndpoint: args.otlpEndpoint,
    trustConfig: args.common.trustConfig,
    approve: mode.approve,
    interactive: mode.interactive,
    allowSecretArguments: mode.allowSecretArguments,
    allowSampling: mode.allowSampling,
    roots: args.roots,
    ...(args.common.protocol ? { protocol: args.common.protocol } : {}),
  };
}
