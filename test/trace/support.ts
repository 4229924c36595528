import path from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "../support/fixtures.js";

const TSX_LOADER = pathToFileURL(path.join(REPO_ROOT, "node_modules/tsx/dist/loader.mjs")).href;
export const BROKEN_SERVER = path.join(REPO_ROOT, "test/fixtures/broken-server.ts");

/** A fake OpenAI project key (the shape secret patterns know), assembled so no key sits in the source. */
export const FAKE_SECRET = ["sk", "proj", "Zq3xW9Lm4Np7Rt2Vb8Kc5Hd1Fg6Js0Ua3Ye9Wx".padEnd(40, "Q")].join("-");

/** Launches the misbehaving fixture through tsx; `env` switches its misbehaviours (see the fixture). */
export function brokenLaunch(
  marker: string,
  env: Record<string, string> = {},
): { command: string; args: string[]; env: Record<string, string> } {
  return {
    command: process.execPath,
    args: ["--import", TSX_LOADER, BROKEN_SERVER, `--marker=${marker}`],
    env: { BROKEN_SECRET: FAKE_SECRET, ...env },
  };
}
