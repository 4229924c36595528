import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import {
  OAuthClientInformationFullSchema,
  OAuthTokensSchema,
  type OAuthClientInformationMixed,
  type OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";

/** What mcpterm keeps of one server's sign-in. */
export interface StoredSignIn {
  server: string;
  /** The server's URL: credentials are bound to it, so a renamed or redirected entry gets none. */
  url: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the tokens were saved (ms since the epoch); with `expires_in`, when they expire. */
  savedAt?: number;
  discovery?: OAuthDiscoveryState;
}

interface StoreFile {
  version: 1;
  signIns: StoredSignIn[];
}

const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

/**
 * Sign-ins (registered clients, tokens, what discovery found), per server and URL, in one file
 * in the user's settings folder that only the user can read. Never in a project: a cloned
 * repository must not be able to read, plant or redirect credentials.
 *
 * Every operation reads the file afresh and writes it whole by rename, so two mcpterm processes
 * (a TUI and a script) see each other's refreshed tokens and never a half-written file.
 */
export class OAuthStore {
  readonly path: string;

  constructor(settingsDir: string) {
    this.path = path.join(settingsDir, "oauth.json");
  }

  get(server: string, url: string): StoredSignIn | undefined {
    return this.read().signIns.find((entry) => entry.server === server && entry.url === url);
  }

  list(): StoredSignIn[] {
    return this.read().signIns;
  }

  /** Changes one server's entry (creating it); `change` gets a copy it may edit. */
  update(server: string, url: string, change: (entry: StoredSignIn) => void): void {
    const data = this.read();
    const others = data.signIns.filter((entry) => !(entry.server === server && entry.url === url));
    const entry = structuredClone(this.get(server, url) ?? { server, url });
    change(entry);
    this.write({ version: 1, signIns: [...others, entry] });
  }

  /** Forgets every sign-in of `server` (whatever its URL); how many entries went. */
  forget(server: string): number {
    const data = this.read();
    const kept = data.signIns.filter((entry) => entry.server !== server);
    if (kept.length !== data.signIns.length) this.write({ version: 1, signIns: kept });
    return data.signIns.length - kept.length;
  }

  private read(): StoreFile {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.path, "utf8"));
    } catch {
      // Missing or unreadable: no sign-ins. The next save writes a good file.
      return { version: 1, signIns: [] };
    }
    const signIns = (parsed as { signIns?: unknown } | null)?.signIns;
    return { version: 1, signIns: Array.isArray(signIns) ? signIns.flatMap(validEntry) : [] };
  }

  private write(data: StoreFile): void {
    mkdirSync(path.dirname(this.path), { recursive: true, mode: FOLDER_MODE });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: FILE_MODE });
    // The mode given to writeFileSync is masked by the umask; tokens are for the user alone.
    chmodSync(temporary, FILE_MODE);
    renameSync(temporary, this.path);
  }

  /** The file's permission bits, or undefined when it does not exist (for `auth status`). */
  mode(): number | undefined {
    try {
      return statSync(this.path).mode & 0o777;
    } catch {
      return undefined;
    }
  }
}

/** Keeps an entry only if it has the shape we wrote: a hand-edited file cannot inject odd values. */
function validEntry(value: unknown): StoredSignIn[] {
  if (typeof value !== "object" || value === null) return [];
  const record = value as Record<string, unknown>;
  if (typeof record.server !== "string" || typeof record.url !== "string") return [];
  const entry: StoredSignIn = { server: record.server, url: record.url };
  const tokens = OAuthTokensSchema.safeParse(record.tokens);
  if (tokens.success) entry.tokens = tokens.data;
  const client = OAuthClientInformationFullSchema.partial({ redirect_uris: true }).safeParse(record.client);
  if (client.success && typeof client.data.client_id === "string") entry.client = client.data;
  if (typeof record.savedAt === "number") entry.savedAt = record.savedAt;
  if (typeof record.discovery === "object" && record.discovery !== null)
    entry.discovery = record.discovery as OAuthDiscoveryState;
  return [entry];
}

/** When stored tokens expire (ms since the epoch), or undefined when the server gave no lifetime. */
export function expiresAt(entry: StoredSignIn): number | undefined {
  const seconds = entry.tokens?.expires_in;
  if (seconds === undefined || entry.savedAt === undefined) return undefined;
  return entry.savedAt + seconds * 1000;
}
