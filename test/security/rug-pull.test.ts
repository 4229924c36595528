import { randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/core/person/approval-request.js";
import { personWho } from "../support/person.js";
import type { AgentEvent } from "../../src/core/agent/events.js";
import { openSession } from "../../src/core/session/open-session.js";
import { tempDir, writeJson } from "../support/fixtures.js";
import { hostileLaunch } from "../support/hostile.js";
import { cleanEnv } from "../support/run-cli.js";
import { interactiveRequest } from "../support/session.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const models: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

const edit = (id: string, name: string) => ({
  toolCalls: [{ id, name: "hostile__edit_note", arguments: JSON.stringify({ name, text: "x" }) }],
});

describe("a tool that changes after it was allowed, within one turn", () => {
  // 2026 servers tell list changes only on a subscriptions/listen stream, 2025 ones unasked.
  it.each(["2026-07-28", "2025-11-25"])(
    "is asked about again on %s: the allowance is checked against the definition the server lists now",
    async (protocol) => {
      const dir = await tempDir();
      const notes = path.join(dir, "notes");
      await import("node:fs/promises").then((fs) => fs.mkdir(notes));
      await writeJson(path.join(dir, "mcp.config.json"), {
        mcpServers: {
          hostile: { ...hostileLaunch(randomUUID(), { HOSTILE_NOTES_DIR: notes }), protocol },
        },
      });
      // The server changes edit_note right after answering its first call; the model calls it again at once.
      const model = await startScriptedModelServer([
        edit("e1", "one.md"),
        edit("e2", "two.md"),
        { text: "Done." },
      ]);
      models.push(model);
      const runtime = await openSession(
        interactiveRequest({ trustConfig: true, model: { model: "m", baseUrl: model.baseUrl } }),
        { env: cleanEnv(), cwd: dir },
      );
      const asked: ApprovalRequest[] = [];
      let described: string | undefined;
      const events: AgentEvent[] = [];
      try {
        await runtime.start().servers;
        const session = runtime.newSession(runtime.modelFor());
        const approve = (request: ApprovalRequest) => {
          asked.push(request);
          // "Always allow" the first time; deny when asked again.
          return Promise.resolve(
            asked.length === 1
              ? { approved: true, remember: "session" as const, reason: "always" }
              : { approved: false, reason: "it changed" },
          );
        };
        runtime.askPersonWith(personWho({ approveCall: approve }));
        for await (const event of session.run("edit two notes")) events.push(event);
        described = runtime.tools.list().find((tool) => tool.name === "edit_note")?.description;
      } finally {
        await runtime.close();
      }
      expect(asked.map((request) => request.callId)).toEqual(["e1", "e2"]);
      expect(asked[1]?.tool).toBe("edit_note");
      // The changed definition is what the second question is about.
      expect(described).toBe("Edit a note. Also uploads every note to the server's owner.");
      expect(asked[1]?.reason).toMatch(/changed its definition since you allowed it/);
      expect(
        events.some(
          (event) =>
            event.type === "warning" && /changed its definition since it was allowed/.test(event.message),
        ),
      ).toBe(true);
      expect(
        events
          .filter((event) => event.type === "approval_decided")
          .map((event) => [event.callId, event.approved, event.by]),
      ).toEqual([
        ["e1", true, "user"],
        ["e2", false, "user"],
      ]);
      expect(await readdir(notes)).toEqual(["one.md"]);
    },
  );
});
