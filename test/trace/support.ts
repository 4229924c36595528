import { compiledFixture } from "../support/compiled-fixtures.js";

/** A fake OpenAI project key (the shape secret patterns know), assembled so no key sits in the source. */
export const FAKE_SECRET = ["sk", "proj", "Zq3xW9Lm4Np7Rt2Vb8Kc5Hd1Fg6Js0Ua3Ye9Wx".padEnd(40, "Q")].join("-");

/** Launches the compiled misbehaving fixture; `env` switches its misbehaviours (see the fixture). */
export function brokenLaunch(
  marker: string,
  env: Record<string, string> = {},
): { command: string; args: string[]; env: Record<string, string> } {
  return {
    command: process.execPath,
    args: [compiledFixture("broken-server"), `--marker=${marker}`],
    env: { BROKEN_SECRET: FAKE_SECRET, ...env },
  };
}
