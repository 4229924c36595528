import { existsSync, readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSession, type SessionRuntime } from "../../src/core/session/open-session.js";
import { findSavedSession } from "../../src/core/session/resume-session.js";
import { inUseElsewhere } from "../../src/core/session/session-in-use.js";
import { tempDir } from "../support/fixtures.js";
import { waitFor } from "../support/poll.js";
import { cleanEnv } from "../support/run-cli.js";
import { interactiveRequest } from "../support/session.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const models: ScriptedModelServer[] = [];
afterAll(() => Promise.all(models.map((model) => model.close())));

/** Runs a turn to its end. */
async function finished(events: AsyncIterable<unknown>): Promise<void> {
  for await (const event of events) if (event === undefined) break;
}

async function markers(dir: string): Promise<string[]> {
  return (await readdir(path.join(dir, ".mcpterm", "sessions"))).filter((name) => name.endsWith(".open"));
}

/** A TUI's runtime in a folder of its own, its model answering "ok", its servers started. */
async function started(): Promise<{ dir: string; runtime: SessionRuntime }> {
  const model = await startScriptedModelServer(() => ({ text: "ok" }));
  models.push(model);
  const dir = await tempDir();
  const runtime = await openSession(interactiveRequest({ model: { model: "m", baseUrl: model.baseUrl } }), {
    env: cleanEnv(),
    cwd: dir,
  });
  await runtime.start().servers;
  return { dir, runtime };
}

describe("a conversation another replaces (the TUI's /resume)", () => {
  it("lets go of its saved session: its in-use marker goes once its last turn is written", async () => {
    const { dir, runtime } = await started();
    try {
      const first = runtime.newSession(runtime.modelFor());
      await finished(first.run("first words"));
      const firstId = first.savedId ?? "";
      expect(await markers(dir)).toEqual([`${firstId}.open`]);
      // /resume of another session: the first conversation gets no more turns.
      const other = runtime.newSession(runtime.modelFor());
      await finished(other.run("other words"));
      const resumed = await findSavedSession(dir, { kind: "id", id: firstId }, runtime.sessionMarks);
      runtime.newSession(runtime.modelFor(), resumed);
      const otherMarker = path.join(dir, ".mcpterm", "sessions", `${other.savedId ?? ""}.open`);
      await waitFor(() => !existsSync(otherMarker), "the replaced conversation's marker to go", 10_000);
    } finally {
      await runtime.close();
    }
    expect(await markers(dir)).toEqual([]);
  });

  it("keeps the session held when /resume goes back to the one it is in", async () => {
    const { dir, runtime } = await started();
    try {
      const first = runtime.newSession(runtime.modelFor());
      await finished(first.run("first words"));
      const id = first.savedId ?? "";
      const again = runtime.newSession(
        runtime.modelFor(),
        await findSavedSession(dir, { kind: "id", id }, runtime.sessionMarks),
      );
      // The replaced conversation lets go of its claim once its last turn is written (nothing
      // waits): the session is still held, before the next turn and after it.
      await new Promise((resolve) => setImmediate(resolve));
      expect(await markers(dir)).toEqual([`${id}.open`]);
      await finished(again.run("more words"));
      expect(await markers(dir)).toEqual([`${id}.open`]);
      expect(inUseElsewhere(path.join(dir, ".mcpterm", "sessions", `${id}.jsonl`))).toBe(false);
      expect(readFileSync(path.join(dir, ".mcpterm", "sessions", `${id}.open`), "utf8")).toBe(
        `${process.pid}\n`,
      );
    } finally {
      await runtime.close();
    }
    expect(await markers(dir)).toEqual([]);
  });
});
