import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/core/agent/events.js";
import { openSession, type SessionRuntime } from "../../src/core/session/open-session.js";
import type { TranscriptAction } from "../../src/ui/transcript/transcript-reducer.js";
import { complete } from "../../src/ui/keys/completion.js";
import { TuiController } from "../../src/ui/app/tui-controller.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { catalogLaunch, EVERYTHING_SERVER, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { interactiveRequest } from "../support/session.js";

/**
 * The TUI controller over a real session: server-everything and the catalog fixture, and the
 * scripted model server, so each case asserts what the model really received.
 */
const marker = randomUUID();
let model: ScriptedModelServer;
let runtime: SessionRuntime;
let controller: TuiController;
const actions: TranscriptAction[] = [];

beforeAll(async () => {
  const dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] },
      catalog: catalogLaunch(marker),
    },
  });
  model = await startScriptedModelServer(() => ({ text: "Noted." }));
  runtime = await openSession(
    interactiveRequest({ trustConfig: true, model: { model: "m", baseUrl: model.baseUrl } }),
    { env: cleanEnv(), cwd: dir },
  );
  await runtime.start().servers;
  controller = new TuiController({
    dispatch: (action) => actions.push(action),
    runtime,
    cwd: dir,
    onExit: () => undefined,
  });
});

afterAll(async () => {
  controller.dispose();
  await runtime.close();
  await model.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

type TurnStart = Extract<AgentEvent, { type: "turn_start" }>;

/** Sends `text` and waits for its turn to end (or for a notice, when it is not sent). */
async function send(
  text: string,
): Promise<{ start: TurnStart | undefined; notice: string | undefined; unsent: string[] }> {
  const from = actions.length;
  const unsent: string[] = [];
  controller.submit(text, (back) => unsent.push(back));
  const done = (): boolean =>
    actions.slice(from).some((action) => action.type === "turn_end" || action.type === "ui_notice");
  for (let tries = 0; tries < 1500 && !done(); tries++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const mine = actions.slice(from);
  return {
    start: mine.find((action): action is TurnStart => action.type === "turn_start"),
    notice: mine.flatMap((action) => (action.type === "ui_notice" ? [action.text] : []))[0],
    unsent,
  };
}

/** The last user message the model received. */
function lastUserMessage(): string {
  const body = model.requests.at(-1)?.body as { messages: Array<{ role: string; content: string }> };
  return body.messages.filter((message) => message.role === "user").at(-1)?.content ?? "";
}

describe("@-mentions in the TUI", () => {
  it("reads the mentioned resources and sends their content with the message, fenced as untrusted", async () => {
    const { start } = await send(
      "summarize @everything:demo://resource/static/document/architecture.md and @everything:demo://resource/dynamic/text/7.",
    );
    expect(start?.input).toBe(
      "summarize @everything:demo://resource/static/document/architecture.md and @everything:demo://resource/dynamic/text/7.",
    );
    expect(start?.attached?.attachments.map((attachment) => attachment.name)).toEqual([
      "demo://resource/static/document/architecture.md",
      "demo://resource/dynamic/text/7",
    ]);
    const sent = lastUserMessage();
    expect(sent.startsWith(`${start?.input ?? ""}\n\n<resource server="everything"`)).toBe(true);
    expect(sent).toContain(
      '<resource server="everything" uri="demo://resource/static/document/architecture.md" mimeType="text/markdown" trust="untrusted">\n# Everything Server',
    );
    expect(sent).toContain(
      'uri="demo://resource/dynamic/text/7" mimeType="text/plain" trust="untrusted">\nResource 7:',
    );
  });

  it("never sends the secrets or terminal controls a resource holds", async () => {
    await send("check @catalog:catalog://leak");
    const sent = lastUserMessage();
    expect(sent).toContain("key: OPENAI_API_KEY=[REDACTED]");
    expect(sent).not.toContain(FAKE_OPENAI_KEY);
    expect(sent.includes("\u001b")).toBe(false);
  });

  it("does not send a message whose mention names no server or cannot be read, and hands it back", async () => {
    const requests = model.requests.length;
    const unknown = await send("see @nope:x://y");
    expect(unknown.notice).toBe(
      'There is no server named "nope" (servers: everything, catalog) for @nope:x://y; the message was not sent.',
    );
    expect(unknown.unsent).toEqual(["see @nope:x://y"]);
    expect(unknown.start).toBeUndefined();
    const unreadable = await send("see @everything:demo://missing");
    expect(unreadable.notice).toMatch(
      /^Could not read @everything:demo:\/\/missing: .*not found; the message was not sent\.$/,
    );
    expect(unreadable.unsent).toEqual(["see @everything:demo://missing"]);
    expect(model.requests.length).toBe(requests);
  });
});

describe("server prompts as commands in the TUI", () => {
  it("sends the rendered prompt as the user's message, and says which prompt it came from", async () => {
    const { start } = await send('/everything:args-prompt "San Francisco" CA');
    expect(lastUserMessage()).toBe("What's weather in San Francisco, CA?");
    expect(start?.input).toBe("What's weather in San Francisco, CA?");
    expect(start?.attached?.attachments).toEqual([
      {
        kind: "prompt",
        server: "everything",
        name: "args-prompt",
        detail: '1 message, city="San Francisco" state="CA"',
      },
    ]);
    const item = actions.findLast((action) => action.type === "turn_start");
    expect(item).toMatchObject({ input: "What's weather in San Francisco, CA?" });
  });

  it("sends a prompt's embedded resource after its text, fenced", async () => {
    await send("/everything:resource-prompt resourceType=Text resourceId=4");
    const sent = lastUserMessage();
    expect(sent).toMatch(
      /^This prompt includes the Text resource with id: 4\. Please analyze the following resource:\n\n\[resource demo:\/\/resource\/dynamic\/text\/4, attached below\]\n\n<resource server="everything" uri="demo:\/\/resource\/dynamic\/text\/4" mimeType="text\/plain" trust="untrusted">\nResource 4: /,
    );
  });

  it("names the missing arguments in one sentence and sends nothing", async () => {
    const requests = model.requests.length;
    const { notice, unsent } = await send("/everything:completable-prompt Sales");
    expect(notice).toBe(
      "/everything:completable-prompt needs name: /everything:completable-prompt <department> <name>; nothing was sent.",
    );
    expect(unsent).toEqual(["/everything:completable-prompt Sales"]);
    expect(model.requests.length).toBe(requests);
  });
});

describe("Tab for mentions and prompts", () => {
  /** What Tab makes of `text` with the cursor at its end, once any server has answered. */
  async function tab(text: string): Promise<{ text: string; candidates: string[] }> {
    const result = complete({ text, cursor: text.length }, await controller.completions(text));
    return { text: result.state.text, candidates: result.candidates };
  }

  it("offers servers, then resources and templates, then asks the server for a template's variable", async () => {
    // The servers that have resources, then the working folder's files.
    expect((await tab("look at @")).candidates).toEqual(["@everything:", "@catalog:", "@mcp.config.json"]);
    expect((await tab("look at @ev")).text).toBe("look at @everything:");
    expect((await tab("@catalog:catalog://n")).text).toBe("@catalog:catalog://notes/");
    expect((await tab("@catalog:catalog://l")).text).toBe("@catalog:catalog://leak ");
    expect(controller.completions("@catalog:catalog://notes/b")).toBeInstanceOf(Promise);
    expect(await tab("@catalog:catalog://notes/b")).toEqual({
      text: "@catalog:catalog://notes/b",
      candidates: ["@catalog:catalog://notes/beta", "@catalog:catalog://notes/bravo"],
    });
    expect((await tab("see @catalog:catalog://notes/al")).text).toBe("see @catalog:catalog://notes/alpha ");
  });

  it("offers the prompts as commands, and their arguments as the server completes them", async () => {
    expect((await tab("/everything:comp")).text).toBe("/everything:completable-prompt ");
    expect((await tab("/everything:completable-prompt ")).candidates).toEqual([
      "Engineering",
      "Sales",
      "Marketing",
      "Support",
    ]);
    expect((await tab("/everything:completable-prompt Sa")).text).toBe(
      "/everything:completable-prompt Sales ",
    );
    expect((await tab("/everything:completable-prompt Sales ")).candidates).toEqual([
      "David",
      "Eve",
      "Frank",
    ]);
    expect((await tab("/catalog:review note=a")).text).toBe("/catalog:review note=alpha ");
  });

  it("completes /read and /mcp loglevel from what the servers offer", async () => {
    expect((await tab("/read catalog catalog://p")).text).toBe("/read catalog catalog://pixel.png ");
    expect((await tab("/mcp loglevel everything w")).text).toBe("/mcp loglevel everything warning ");
  });
});
