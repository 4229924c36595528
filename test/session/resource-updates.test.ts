import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { ResourceUpdateNotices } from "../../src/core/session/resource-updates.js";
import type { LiveNotice } from "../../src/core/session/open-session.js";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { replaceFile, serverConfig, tempDir } from "../support/fixtures.js";
import { waitFor } from "../support/poll.js";

/**
 * The notice a person gets when a subscribed resource changes, against a real 2025 server whose
 * new content is hostile: terminal controls and a secret. The notice names server and URI and
 * shows the start of the new text, cleaned.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("ResourceUpdateNotices", () => {
  it("tells the update with a cleaned, redacted, one-line excerpt", async () => {
    const dir = await tempDir();
    const statusFile = path.join(dir, "status.txt");
    await writeFile(statusFile, "initial");
    const notices: LiveNotice[] = [];
    const redactor = new SecretRedactor([]);
    const manager = new McpManager(
      [
        serverConfig("legacy", {
          command: process.execPath,
          args: [compiledFixture("legacy-server")],
          env: { FIXTURE_STATUS_FILE: statusFile },
        }),
      ],
      {
        parentEnv: process.env,
        onSubscription: (event) => {
          if (event.kind === "updated") updates.updated(event.server, event.uri);
        },
      },
    );
    const updates = new ResourceUpdateNotices(
      (server) => manager.connection(server),
      redactor,
      (notice) => notices.push(notice),
    );
    cleanups.push(() => manager.close());
    await manager.start();
    await manager.connection("legacy")?.subscribeResource("note://status");
    await replaceFile(
      statusFile,
      `\x1b[2J\x1b]0;owned\x07deploy\nfailed with key ${FAKE_OPENAI_KEY} ${"x".repeat(300)}`,
    );
    await waitFor(() => notices.length > 0, "the notice");
    const [notice] = notices;
    expect(notice?.server).toBe("legacy");
    expect(notice?.level).toBe("info");
    expect(notice?.text).toMatch(
      /^legacy: note:\/\/status changed: "deploy failed with key \[REDACTED[^\]]*\] x+…" · \/read legacy note:\/\/status shows it all$/,
    );
    expect(notice?.text).not.toContain("\x1b");
    expect(notice?.text).not.toContain(FAKE_OPENAI_KEY);
  });
});
