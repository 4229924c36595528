import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { userSettingsDir } from "../config/user-settings.js";

/** The key's file in the user's settings folder: 32 random bytes, as hex, readable by the user alone. */
const KEY_FILE = "session-key";
const KEY_HEX = /^[0-9a-f]{64}$/;

/**
 * Proof that a saved session was started by this user's mcpterm, in the folder it names: an
 * HMAC of its id and folder under a key of the user's own, kept in their settings folder (made on
 * first use). A session file that came with a cloned repository or an archive cannot carry it,
 * however it is named, dated or moded, so `--continue` goes on only with marked sessions and
 * never puts a project's words in the person's mouth (resume-session.ts). A settings folder
 * that cannot be written leaves new sessions unmarked (the session says so), and --continue then
 * does not pick them. The mark vouches for who started a session and where, not for every line
 * since: whatever can write the session's file (a tool the person lets edit files) can still
 * change what it says.
 */
export class SessionMarks {
  private key: Buffer | undefined;

  constructor(private readonly dir: string) {}

  static forEnv(env: NodeJS.ProcessEnv): SessionMarks {
    return new SessionMarks(userSettingsDir(env));
  }

  /** The mark for a new session's header, making the key if there is none yet; undefined if it cannot. */
  mark(id: string, cwd: string): string | undefined {
    const key = this.readKey() ?? this.makeKey();
    return key && sign(key, id, cwd);
  }

  /** Whether a session header carries this user's mark for its id and folder. */
  holds(header: { id: string; cwd: string; mark?: string | undefined }): boolean {
    const key = header.mark === undefined ? undefined : this.readKey();
    if (!key || header.mark === undefined) return false;
    const expected = Buffer.from(sign(key, header.id, header.cwd), "hex");
    const given = Buffer.from(header.mark, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private readKey(): Buffer | undefined {
    if (this.key) return this.key;
    const file = path.join(this.dir, KEY_FILE);
    try {
      // Its own regular file only: never a link a project could have planted in its place.
      if (!lstatSync(file).isFile()) return undefined;
      const text = readFileSync(file, "utf8").trim();
      this.key = KEY_HEX.test(text) ? Buffer.from(text, "hex") : undefined;
    } catch {
      return undefined;
    }
    return this.key;
  }

  private makeKey(): Buffer | undefined {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileSync(path.join(this.dir, KEY_FILE), `${randomBytes(32).toString("hex")}\n`, {
        flag: "wx",
        mode: 0o600,
      });
    } catch {
      // Another mcpterm made it first (EEXIST), or the folder cannot be written: read what is there.
    }
    return this.readKey();
  }
}

function sign(key: Buffer, id: string, cwd: string): string {
  return createHmac("sha256", key)
    .update(`${id}\n${path.resolve(cwd)}`)
    .digest("hex");
}
