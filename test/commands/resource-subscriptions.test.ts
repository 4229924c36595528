import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandContext, CommandResult } from "../../src/core/commands/command-types.js";
import { runSlashCommand } from "../../src/core/commands/slash-commands.js";
import { catalogsSettled } from "../../src/core/context/catalog-view.js";
import { openSession, type SessionRuntime } from "../../src/core/session/open-session.js";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv } from "../support/run-cli.js";
import { commandContext, interactiveRequest } from "../support/session.js";

/**
 * /resources subscribe and unsubscribe in a real session: which server a bare URI means, the
 * sentences for what cannot be done, and the list of subscriptions. Two servers list the same
 * URI (a 2026 and a 2025 fixture); a third offers no subscriptions.
 */
const marker = randomUUID();
let runtime: SessionRuntime;
let context: CommandContext;

beforeAll(async () => {
  const dir = await tempDir();
  const launch = (name: "modern-server" | "legacy-server") => ({
    command: process.execPath,
    args: [compiledFixture(name), `--marker=${marker}`],
  });
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      modern: launch("modern-server"),
      legacy: launch("legacy-server"),
      plain: fixtureLaunch(marker),
    },
  });
  runtime = await openSession(interactiveRequest({ trustConfig: true }), { env: cleanEnv(), cwd: dir });
  await runtime.start().servers;
  await catalogsSettled(runtime.manager);
  context = commandContext(runtime);
});

afterAll(async () => {
  await runtime.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

async function say(input: string): Promise<string> {
  const result: CommandResult = await runSlashCommand(context, input);
  if (result.kind === "table") return result.rows.map((row) => row.join(" | ")).join("\n");
  return result.kind === "text" ? result.text : `error: ${result.message}`;
}

describe("/resources subscribe and unsubscribe", () => {
  it("says what cannot be done in one sentence each", async () => {
    expect(await say("/resources subscribe")).toBe(
      "No subscriptions. /resources subscribe [server] <uri> starts one.",
    );
    expect(await say("/resources subscribe note://status")).toBe(
      "error: Which server's note://status? Several could be meant (modern, legacy); name one: /resources subscribe [server] <uri>.",
    );
    expect(await say("/resources subscribe modern")).toBe(
      'error: Which URI on "modern"? Name it after the server: /resources subscribe [server] <uri>.',
    );
    expect(await say("/resources unsubscribe legacy")).toBe(
      'error: Which URI on "legacy"? Name it after the server: /resources unsubscribe [server] <uri>.',
    );
    expect(await say("/resources subscribe nope note://status")).toBe(
      'error: There is no server named "nope" (servers: modern, legacy, plain).',
    );
    expect(await say("/resources subscribe plain note://status")).toMatch(
      /^error: Subscribing to note:\/\/status on "plain" failed: server "plain" does not offer resource subscriptions/,
    );
    expect(await say("/resources unsubscribe modern note://status")).toBe(
      'error: There is no subscription to note://status on "modern".',
    );
  });

  it("subscribes by @server:uri, lists the subscriptions, and a bare uri unsubscribes where it is subscribed", async () => {
    expect(await say("/resources subscribe @modern:note://status")).toBe(
      "Subscribed to note://status on modern: its updates are shown as they arrive (/resources unsubscribe modern note://status ends it).",
    );
    expect(await say("/resources subscribe legacy note://status")).toMatch(
      /^Subscribed to note:\/\/status on legacy/,
    );
    expect(await say("/resources subscribe")).toBe("modern | note://status\nlegacy | note://status");
    expect(await say("/resources unsubscribe legacy note://status")).toBe(
      "Unsubscribed from note://status on legacy.",
    );
    // Listed by both servers, subscribed on one: that one is meant.
    expect(await say("/resources unsubscribe note://status")).toBe(
      "Unsubscribed from note://status on modern.",
    );
    expect(await say("/resources subscribe")).toMatch(/^No subscriptions/);
  });
});
