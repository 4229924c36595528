import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import type { CacheHit } from "../../src/core/mcp/response-cache.js";
import type { SubscriptionEvent } from "../../src/core/mcp/subscriptions.js";
import type { WireFrame } from "../../src/core/mcp/types.js";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { EVERYTHING_SERVER, replaceFile, serverConfig, tempDir } from "../support/fixtures.js";
import { waitFor } from "../support/poll.js";

/**
 * Subscriptions against real server processes in both eras: on a 2026 server list changes and
 * resource updates arrive only on subscriptions/listen streams; on a 2025 server list changes
 * come unasked and resources take resources/subscribe. Kept results (ttlMs) are served from the
 * cache and made stale by a change.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Harness {
  manager: McpManager;
  events: SubscriptionEvent[];
  wire: WireFrame[];
  hits: CacheHit[];
  statusFile: string;
}

async function start(
  fixture: "modern-server" | "legacy-server" | "listen-server",
  env: Record<string, string> = {},
): Promise<Harness> {
  const dir = await tempDir();
  const statusFile = path.join(dir, "status.txt");
  await writeFile(statusFile, "initial");
  const events: SubscriptionEvent[] = [];
  const wire: WireFrame[] = [];
  const hits: CacheHit[] = [];
  const manager = new McpManager(
    [
      serverConfig("srv", {
        command: process.execPath,
        args: [compiledFixture(fixture)],
        env: { FIXTURE_STATUS_FILE: statusFile, ...env },
      }),
    ],
    {
      parentEnv: process.env,
      onSubscription: (event) => events.push(event),
      onWire: (frame) => wire.push(frame),
      onCacheHit: (hit) => hits.push(hit),
    },
  );
  cleanups.push(() => manager.close());
  await manager.start();
  expect(manager.servers()[0]?.status).toBe("connected");
  return { manager, events, wire, hits, statusFile };
}

const sent = (wire: readonly WireFrame[], method: string): number =>
  wire.filter(
    (frame) => frame.direction === "send" && (frame.message as { method?: string }).method === method,
  ).length;

const updates = (events: readonly SubscriptionEvent[], uri: string): number =>
  events.filter((event) => event.kind === "updated" && event.uri === uri).length;

async function statusText(manager: McpManager): Promise<string> {
  const result = await manager.connection("srv")?.readResource("note://status");
  const first = result?.contents[0];
  return first && "text" in first ? first.text : "";
}

describe("subscriptions on a 2026 server", () => {
  it("opens a listen stream for the lists it announces, and a list change there reaches the tools", async () => {
    const { manager, events, wire } = await start("modern-server");
    await waitFor(
      () => events.some((event) => event.kind === "opened" && event.subject === "list changes"),
      "the list-change stream",
    );
    const opened = events.find((event) => event.kind === "opened" && event.subject === "list changes");
    expect(opened).toMatchObject({
      era: "modern",
      honored: { toolsListChanged: true, resourcesListChanged: true },
    });
    expect(sent(wire, "subscriptions/listen")).toBe(1);

    await manager.callTool("srv", "add_tool", { name: "fresh_tool" });
    await waitFor(
      () => manager.tools().some((tool) => tool.definition.name === "fresh_tool"),
      "the new tool to be listed",
    );
  });

  it("subscribes to a resource on a stream of its own; an update is told; unsubscribing closes it", async () => {
    const { manager, events, statusFile } = await start("modern-server");
    const connection = manager.connection("srv");
    await connection?.subscribeResource("note://status");
    expect(connection?.subscribedResources()).toEqual(["note://status"]);
    expect(events).toContainEqual(
      expect.objectContaining({
        kind: "opened",
        subject: "note://status",
        honored: expect.objectContaining({ resourceSubscriptions: ["note://status"] }) as unknown,
      }),
    );
    await replaceFile(statusFile, "changed from outside");
    await waitFor(() => updates(events, "note://status") > 0, "the update");
    expect(await statusText(manager)).toBe("changed from outside");

    expect(await connection?.unsubscribeResource("note://status")).toBe(true);
    expect(events.at(-1)).toMatchObject({ kind: "closed", subject: "note://status", why: "unsubscribed" });
    expect(await connection?.unsubscribeResource("note://status")).toBe(false);
  });

  it("two subscribes to one resource at once open one stream, and one unsubscribe closes it", async () => {
    const { manager, events, wire } = await start("modern-server");
    const connection = manager.connection("srv");
    await Promise.all([
      connection?.subscribeResource("note://status"),
      connection?.subscribeResource("note://status"),
    ]);
    const resourceListens = wire.filter((frame) => {
      const message = frame.message as { method?: string; params?: { notifications?: object } };
      return (
        frame.direction === "send" &&
        message.method === "subscriptions/listen" &&
        "resourceSubscriptions" in (message.params?.notifications ?? {})
      );
    });
    expect(resourceListens).toHaveLength(1);
    expect(await connection?.unsubscribeResource("note://status")).toBe(true);
    expect(connection?.subscribedResources()).toEqual([]);
    const opened = events.filter((event) => event.kind === "opened" && event.subject === "note://status");
    expect(opened).toHaveLength(1);
  });

  it("after a crash the server is subscribed again, and its updates still arrive", async () => {
    const { manager, events, statusFile } = await start("modern-server", { FIXTURE_EXIT_TOOL: "1" });
    const connection = manager.connection("srv");
    await connection?.subscribeResource("note://status");
    await manager.callTool("srv", "exit_now", {}).catch(() => undefined);
    await waitFor(
      () =>
        events.filter((event) => event.kind === "opened" && event.subject === "note://status").length >= 2,
      "the subscription to be opened again on the new process",
    );
    expect(manager.servers()[0]?.status).toBe("connected");
    await replaceFile(statusFile, "after the crash");
    await waitFor(() => updates(events, "note://status") > 0, "an update from the new process");
  });

  it("closes its streams when the server stops", async () => {
    const { manager, events } = await start("modern-server");
    await manager.connection("srv")?.subscribeResource("note://status");
    await manager.close();
    expect(events.filter((event) => event.kind === "closed").map((event) => event.subject)).toEqual(
      expect.arrayContaining(["list changes", "note://status"]),
    );
  });
});

describe("subscriptions on a 2026 server over Streamable HTTP", () => {
  it("a resource's updates arrive on its listen stream (SSE)", async () => {
    const dir = await tempDir();
    const statusFile = path.join(dir, "status.txt");
    await writeFile(statusFile, "initial");
    const child = spawn(process.execPath, [compiledFixture("modern-server"), "--http"], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, FIXTURE_STATUS_FILE: statusFile },
    });
    cleanups.push(() => Promise.resolve(void child.kill()));
    const url = await new Promise<string>((resolve, reject) => {
      child.once("error", reject);
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        const listening = /listening (\S+)/.exec(chunk)?.[1];
        if (listening) resolve(listening);
      });
    });
    const events: SubscriptionEvent[] = [];
    const manager = new McpManager([serverConfig("srv", { transport: "http", url })], {
      parentEnv: process.env,
      onSubscription: (event) => events.push(event),
    });
    cleanups.push(() => manager.close());
    await manager.start();
    expect(manager.servers()[0]).toMatchObject({ status: "connected", era: "modern" });
    await manager.connection("srv")?.subscribeResource("note://status");
    await replaceFile(statusFile, "news over http");
    await waitFor(() => updates(events, "note://status") > 0, "the update");
    expect(await statusText(manager)).toBe("news over http");
  });
});

describe("a dropped list-change stream (2026)", () => {
  it("is listened to again, and the tools are listed afresh: a change made in the gap is not lost", async () => {
    const { manager, events, statusFile } = await start("listen-server");
    const listOpenings = (): number =>
      events.filter((event) => event.kind === "opened" && event.subject === "list changes").length;
    await waitFor(() => listOpenings() === 1, "the list-change stream");
    const description = (): string | undefined =>
      manager.tools().find((tool) => tool.definition.name === "echo")?.definition.description;
    expect(description()).toBe("Echoes its text.");
    // The server changes its tool and drops the stream: the change is never announced.
    await replaceFile(statusFile, "drop-lists Echoes, changed in the gap");
    await waitFor(() => listOpenings() === 2, "the stream opened again");
    await waitFor(() => description() === "Echoes, changed in the gap", "the tools listed afresh");
    expect(events).toContainEqual(expect.objectContaining({ kind: "closed", why: "remote", relisten: true }));
  });
});

describe("subscriptions on a 2025 server", () => {
  it("takes resources/subscribe, tells the update, and resources/unsubscribe ends it", async () => {
    const { manager, events, wire, statusFile } = await start("legacy-server");
    const connection = manager.connection("srv");
    await connection?.subscribeResource("note://status");
    expect(sent(wire, "resources/subscribe")).toBe(1);
    expect(sent(wire, "subscriptions/listen")).toBe(0);
    await replaceFile(statusFile, "legacy news");
    await waitFor(() => updates(events, "note://status") > 0, "the update");
    expect(await statusText(manager)).toBe("legacy news");
    await connection?.unsubscribeResource("note://status");
    expect(sent(wire, "resources/unsubscribe")).toBe(1);
  });

  it("server-everything's simulated updates still arrive", async () => {
    const manager = new McpManager(
      [serverConfig("everything", { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] })],
      { parentEnv: process.env, onSubscription: (event) => events.push(event) },
    );
    const events: SubscriptionEvent[] = [];
    cleanups.push(() => manager.close());
    await manager.start();
    const connection = manager.connection("everything");
    await connection?.catalogSettled();
    const uri = manager.servers()[0]?.catalog.resources[0]?.uri ?? "";
    expect(uri).not.toBe("");
    await connection?.subscribeResource(uri);
    await waitFor(
      () => manager.tools().some((tool) => tool.definition.name === "toggle-subscriber-updates"),
      "the toggle tool",
    );
    await manager.callTool("everything", "toggle-subscriber-updates", {});
    await waitFor(() => updates(events, uri) > 0, "a simulated update");
  });

  it("a server without resource subscriptions gets one sentence", async () => {
    const manager = new McpManager(
      [serverConfig("plain", { command: process.execPath, args: [compiledFixture("fixture-server")] })],
      { parentEnv: process.env },
    );
    cleanups.push(() => manager.close());
    await manager.start();
    await expect(manager.connection("plain")?.subscribeResource("note://status")).rejects.toThrow(
      /does not offer resource subscriptions/,
    );
  });
});

describe("results kept as long as the server says (ttlMs)", () => {
  it("a read within its ttl is answered from the cache; an update makes it stale", async () => {
    const { manager, wire, hits, statusFile, events } = await start("modern-server", {
      FIXTURE_CACHE_TTL_MS: "600000",
    });
    expect(manager.servers()[0]?.cacheHints?.["tools/list"]).toEqual({ ttlMs: 600000, cacheScope: "public" });
    await manager.connection("srv")?.subscribeResource("note://status");
    expect(await statusText(manager)).toBe("all quiet");
    expect(await statusText(manager)).toBe("all quiet");
    expect(sent(wire, "resources/read")).toBe(1);
    expect(hits).toContainEqual(expect.objectContaining({ method: "resources/read", key: "note://status" }));

    await replaceFile(statusFile, "fresh news");
    await waitFor(() => updates(events, "note://status") > 0, "the update");
    expect(await statusText(manager)).toBe("fresh news");
    expect(sent(wire, "resources/read")).toBe(2);
  });

  it("a 2025 result is never kept, even when it carries a ttlMs", async () => {
    // Its reads carry ttlMs and cacheScope, which 2025 does not define: nothing may be kept.
    const { manager, wire, hits } = await start("legacy-server", { FIXTURE_CACHE_TTL_MS: "600000" });
    const first = await statusText(manager);
    expect(await statusText(manager)).toBe(first);
    expect(sent(wire, "resources/read")).toBe(2);
    expect(hits).toEqual([]);
  });

  it("a read answered on the retry after input_required is never kept, roots asked or not (SEP-2549)", async () => {
    // The server asks for the client's roots before answering; mcpterm answers roots/list itself,
    // without asking the person. The answer came on an MRTR retry: the spec says it MUST NOT be
    // cached, so a second read goes to the server again.
    const { manager, wire, hits } = await start("modern-server", {
      FIXTURE_CACHE_TTL_MS: "600000",
      FIXTURE_ROOTS_RESOURCE: "1",
    });
    const read = async (): Promise<string> => {
      const first = (await manager.connection("srv")?.readResource("note://roots"))?.contents[0];
      return first && "text" in first ? first.text : "";
    };
    expect(await read()).toMatch(/^read 1:/);
    expect(await read()).toMatch(/^read 2:/);
    expect(hits.filter((hit) => hit.method === "resources/read")).toEqual([]);
    expect(sent(wire, "resources/read")).toBe(4);
  });

  it("a list change is listed afresh; a crashed process started again is listed again, ttl or not", async () => {
    const { manager, wire, hits } = await start("modern-server", {
      FIXTURE_CACHE_TTL_MS: "600000",
      FIXTURE_EXIT_TOOL: "1",
    });
    expect(sent(wire, "tools/list")).toBe(1);
    await manager.callTool("srv", "add_tool", { name: "fresh_tool" });
    await waitFor(
      () => manager.tools().some((tool) => tool.definition.name === "fresh_tool"),
      "the new tool",
    );
    expect(sent(wire, "tools/list")).toBe(2);

    const before = hits.length;
    await manager.callTool("srv", "exit_now", {}).catch(() => undefined);
    // A new process is a new server: what the crashed one said may be kept is forgotten.
    await waitFor(
      () => sent(wire, "tools/list") === 3 && manager.servers()[0]?.status === "connected",
      "the reconnection's listing",
    );
    expect(hits.slice(before).filter((hit) => hit.method === "tools/list")).toEqual([]);
  });
});
