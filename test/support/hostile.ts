import { compiledFixture } from "./compiled-fixtures.js";

// The fixture imports this one, which has no imports of its own (it is bundled into the fixture).
export { HIDDEN_INSTRUCTION, HIDDEN_LINT_TOKEN, HIDDEN_PATTERN_TOKEN } from "./hostile-secrets.js";

/** A secret in the hostile server's own config env; it writes it to stderr. */
export const HOSTILE_TOKEN = ["tok", "live", "Q7r2Kp9Xw4Lm8Nz3Vb6Hc1Jd5Fg0"].join("_");

/** Launches the compiled hostile fixture; `env` adds its switches (see the fixture). */
export function hostileLaunch(
  marker: string,
  env: Record<string, string> = {},
): { command: string; args: string[]; env: Record<string, string> } {
  return {
    command: process.execPath,
    args: [compiledFixture("hostile-server"), `--marker=${marker}`],
    env: { HOSTILE_TOKEN, ...env },
  };
}
