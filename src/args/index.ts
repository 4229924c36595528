/** The command line, parsed into one typed command: what the rest of mcpterm imports. */
export { parseArgs } from "./parse-args.js";
export { DEFAULT_MAX_STEPS } from "./shared/cli-args.js";
export type {
  CliArgs,
  CommonArgs,
  ModelArgs,
  OneShotArgs,
  OutputFormat,
  ReplayFlags,
  ResumeChoice,
  SavedCall,
  ServerOverride,
  SessionArgs,
  TraceCommandArgs,
} from "./shared/cli-args.js";
