import { errorMessage } from "../errors.js";
import { contentsText } from "../context/resource-content.js";
import type { ServerConnection } from "../mcp/server-connection.js";
import type { SecretRedactor } from "../policy/redact-secrets.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import { cleanServerText } from "../policy/server-text.js";
import { oneLine } from "../text/index.js";
import type { LiveNotice } from "./open-session.js";

/** How wide the excerpt of an updated resource is in its notice: enough to see what changed. */
const EXCERPT_WIDTH = 120;

/**
 * Tells the person that a resource they subscribed to changed, as it happens: which server,
 * which resource, and the start of its new content (read again, secrets removed, terminal
 * controls dropped: it is the server's text), with how to see all of it. Updates that arrive
 * while one is being read are answered by one more reading after it, not one each.
 */
export class ResourceUpdateNotices {
  /** Per server and resource: a reading under way, and whether another update came meanwhile. */
  private readonly reading = new Map<string, { again: boolean }>();

  constructor(
    private readonly connection: (server: string) => ServerConnection | undefined,
    private readonly redactor: SecretRedactor,
    private readonly tell: (notice: LiveNotice) => void,
  ) {}

  updated(server: string, uri: string): void {
    const key = `${server}\u0000${uri}`;
    const running = this.reading.get(key);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: true };
    this.reading.set(key, state);
    void (async () => {
      while (state.again) {
        state.again = false;
        this.tell({ level: "info", text: await this.describe(server, uri), server });
      }
      this.reading.delete(key);
    })();
  }

  private async describe(server: string, uri: string): Promise<string> {
    const shown = sanitizeForTerminal(this.redactor.redactText(uri));
    const more = `/read ${server} ${shown} shows it all`;
    const connection = this.connection(server);
    try {
      const result = await (connection?.readResource(uri) ?? Promise.reject(new Error("not connected")));
      const texts = result.contents.map((contents) => contentsText(contents).text).join(" ");
      const excerpt = oneLine((await cleanServerText(texts, this.redactor)).text, EXCERPT_WIDTH);
      return `${server}: ${shown} changed: ${excerpt === "" ? "(now empty)" : `"${excerpt}"`} · ${more}`;
    } catch (error) {
      return `${server}: ${shown} changed (reading it failed: ${this.redactor.redactText(errorMessage(error))}) · ${more}`;
    }
  }
}
