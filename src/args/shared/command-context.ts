import type { NamedLaunch } from "../../core/config/ad-hoc-server.js";
import type { CliArgs } from "./cli-args.js";
import type { TypedServerFlags } from "./server-target.js";

/** What each command module is given besides the parser. */
export interface CommandContext {
  /** Takes the command's typed result; its handler calls it once. */
  choose: (args: CliArgs) => void;
  /**
   * The server typed after `--` or as `--url` (see typedServer), with the words after `--`
   * already bound; undefined when none was typed.
   */
  target: (parsed: TypedServerFlags) => NamedLaunch | undefined;
  /**
   * The words after `--` exactly as typed, for a command that takes them as its own (`kb`):
   * yargs would read numbers in them (`0x10` as 16).
   */
  afterDash: readonly string[];
}
