import type { TrustEntry } from "../config/config-trust.js";

/** What a person is asked to trust: the config file and one entry per thing it would do. */
export interface TrustQuestion {
  configPath: string;
  /** What the config wants, e.g. "wants to start or connect to 2 servers". */
  summary: string;
  entries: TrustEntry[];
}
