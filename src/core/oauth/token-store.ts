import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { ensurePrivateFolder } from "../config/private-folder.js";
import { ServerUnavailableError } from "../errors.js";
import { readEntry, type StoredSignIn } from "./issued-credentials.js";

export type { StoredSignIn } from "./issued-credentials.js";

/**
 * The file's format. 2 keeps credentials per authorization server (by issuer); a file of
 * format 1 (one client and one set of tokens per server) is read as 2 and written as 2.
 */
interface StoreFile {
  version: 2;
  signIns: StoredSignIn[];
}

const FILE_MODE = 0o600;
/** How long `locked` waits for another process's lock, and when a lock counts as left behind. */
const LOCK_WAIT_MS = 15_000;
const LOCK_STALE_MS = 60_000;
const LOCK_POLL_MS = 50;

/**
 * Sign-ins (what discovery found, and per authorization server the registered client, the
 * tokens and the DPoP key that binds them), per server and URL, in one file
 * in the user's settings folder that only the user can read. Never in a project: a cloned
 * repository must not be able to read, plant or redirect credentials.
 *
 * Every operation reads the file afresh and writes it whole by rename, so two mcpterm processes
 * (a TUI and a script) see each other's refreshed tokens and never a half-written file.
 */
type Loaded = { data: StoreFile; problem?: string };

export class OAuthStore {
  readonly path: string;
  private cached: { stamp: string; loaded: Loaded } | undefined;

  constructor(settingsDir: string) {
    this.path = path.join(settingsDir, "oauth.json");
  }

  get(server: string, url: string): StoredSignIn | undefined {
    return this.read().signIns.find((entry) => entry.server === server && entry.url === url);
  }

  list(): StoredSignIn[] {
    return this.read().signIns;
  }

  /** Changes one server's entry (creating it, or dropping it once empty); `change` gets a copy it may edit. */
  update(server: string, url: string, change: (entry: StoredSignIn) => void): void {
    const data = this.read();
    const others = data.signIns.filter((entry) => !(entry.server === server && entry.url === url));
    const entry = structuredClone(this.get(server, url) ?? { server, url, credentials: [] });
    change(entry);
    // An entry with nothing left in it (a sign-out, a forgotten discovery) is not kept.
    const empty = entry.credentials.length === 0 && entry.discovery === undefined;
    this.write({ version: 2, signIns: empty ? others : [...others, entry] });
  }

  /**
   * Forgets every sign-in of `server` (whatever its URL); how many entries went. Under the lock,
   * as refreshes are: one running in another process would otherwise save its new tokens after
   * the sign-out, and the sign-in would be back.
   */
  forget(server: string): Promise<number> {
    return this.locked(() => {
      const data = this.read();
      const kept = data.signIns.filter((entry) => entry.server !== server);
      if (kept.length !== data.signIns.length) this.write({ version: 2, signIns: kept });
      return Promise.resolve(data.signIns.length - kept.length);
    });
  }

  /**
   * Why the file cannot be used, when it exists but is not a store mcpterm wrote (hand-edited
   * into invalid JSON, say): nothing is written over it, so no sign-in in it is lost.
   */
  problem(): string | undefined {
    return this.load().problem;
  }

  /**
   * Runs `work` holding the store's lock file (created exclusively beside it), so two processes
   * never refresh the same tokens at once; a lock older than a minute is taken as left behind.
   */
  async locked<T>(work: () => Promise<T>): Promise<T> {
    ensurePrivateFolder(path.dirname(this.path));
    const lock = `${this.path}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        closeSync(openSync(lock, "wx", FILE_MODE));
        break;
      } catch {
        const age = lockAge(lock);
        if (age !== undefined && age > LOCK_STALE_MS) unlinkSync(lock);
        else if (Date.now() > deadline)
          throw new ServerUnavailableError(`${lock} is held by another mcpterm; try again when it is done.`);
        else await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
      }
    }
    try {
      return await work();
    } finally {
      try {
        unlinkSync(lock);
      } catch {
        // Already gone.
      }
    }
  }

  private read(): StoreFile {
    return this.load().data;
  }

  /**
   * The file as read last time, while it is the same file (same inode, size and mtime): the
   * transport asks for the tokens on every request, and a stat is far cheaper than reading,
   * parsing and validating the file each time. Another process's write (a rename) is a new file.
   */
  private load(): Loaded {
    let stamp: string;
    try {
      // lstat: a link planted in the settings folder is not followed (loadFresh says so).
      const stats = lstatSync(this.path);
      stamp = `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.isFile() ? "file" : "other"}`;
    } catch {
      return this.loadFresh();
    }
    if (this.cached?.stamp !== stamp) this.cached = { stamp, loaded: this.loadFresh() };
    return this.cached.loaded;
  }

  private loadFresh(): Loaded {
    let text: string;
    try {
      // Tokens are read from a file of the person's own, never through a link someone planted.
      if (!lstatSync(this.path).isFile())
        return {
          data: { version: 2, signIns: [] },
          problem: `${this.path} is not a plain file (a link, or a folder); mcpterm does not read sign-ins through it: remove it and sign in again`,
        };
      text = readFileSync(this.path, "utf8");
    } catch (error) {
      // Missing: no sign-ins yet. Unreadable: none usable, and nothing written over it.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { data: { version: 2, signIns: [] } };
      return {
        data: { version: 2, signIns: [] },
        problem: `${this.path} cannot be read (${(error as Error).message})`,
      };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return {
        data: { version: 2, signIns: [] },
        problem: `${this.path} is not valid JSON; fix it or delete it (every sign-in in it is then forgotten)`,
      };
    }
    const signIns = (parsed as { signIns?: unknown } | null)?.signIns;
    return { data: { version: 2, signIns: Array.isArray(signIns) ? signIns.flatMap(readEntry) : [] } };
  }

  private write(data: StoreFile): void {
    const problem = this.problem();
    if (problem) throw new ServerUnavailableError(`${problem}; mcpterm writes no sign-in over it.`);
    ensurePrivateFolder(path.dirname(this.path));
    // A fresh name, created exclusively: never written through a file or link already there.
    const temporary = `${this.path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: FILE_MODE, flag: "wx" });
    // The mode given to writeFileSync is masked by the umask; tokens are for the user alone.
    chmodSync(temporary, FILE_MODE);
    renameSync(temporary, this.path);
  }

  /**
   * The file's permission bits, or undefined when there is no plain file there (for `auth
   * status`): a link's target is not the store (problem() says so), and its mode is not ours to judge.
   */
  mode(): number | undefined {
    try {
      const stats = lstatSync(this.path);
      return stats.isFile() ? stats.mode & 0o777 : undefined;
    } catch {
      return undefined;
    }
  }
}

function lockAge(lock: string): number | undefined {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return undefined;
  }
}
