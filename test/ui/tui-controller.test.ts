import { mkdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/core/agent/events.js";
import type { Session, UserMessage } from "../../src/core/agent/session.js";
import { RootList } from "../../src/core/mcp/roots.js";
import type { ElicitationQuestion } from "../../src/core/person/elicitation.js";
import type { SamplingQuestion } from "../../src/core/person/sampling.js";
import type { Person } from "../../src/core/person/person.js";
import type { LiveNotice } from "../../src/core/session/open-session.js";
import type { TranscriptAction } from "../../src/ui/transcript/transcript-reducer.js";
import type { QueueView } from "../../src/ui/transcript/transcript-types.js";
import { ConfigError } from "../../src/core/errors.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { TuiController, type TuiControllerOptions } from "../../src/ui/app/tui-controller.js";
import { tempDir } from "../support/fixtures.js";

/** A turn the test ends by hand: it reports its start, then waits to be finished or cancelled. */
interface HeldTurn {
  input: string;
  finish: () => void;
}

function setup(
  cwd = process.cwd(),
  /** What the runtime says differently (a model that could not be set up). */
  runtimeChanges: Record<string, unknown> = {},
): {
  controller: TuiController;
  turns: HeldTurn[];
  actions: TranscriptAction[];
  queue: () => QueueView | undefined;
  settled: () => Promise<void>;
  /** Tells the controller a live notice, as the session does. */
  notice: (notice: LiveNotice) => void;
  roots: RootList;
  /** Who the session would ask servers' questions now. */
  person: () => Person | undefined;
} {
  const turns: HeldTurn[] = [];
  const actions: TranscriptAction[] = [];
  const session = {
    modelName: "fake",
    clear: () => undefined,
    setModel: () => undefined,
    async *run(
      message: string | UserMessage,
      control: { signal?: AbortSignal },
    ): AsyncGenerator<AgentEvent, void> {
      const input = typeof message === "string" ? message : message.text;
      yield { type: "turn_start", turn: turns.length + 1, input, at: new Date().toISOString() };
      await new Promise<void>((resolve) => {
        turns.push({ input, finish: resolve });
        control.signal?.addEventListener("abort", () => resolve(), { once: true });
      });
      const reason = control.signal?.aborted ? "aborted" : "completed";
      const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
      yield { type: "turn_end", turn: turns.length, reason, answer: "", steps: 1, usage, deniedCalls: 0 };
    },
  };
  const noticeListeners = new Set<(notice: LiveNotice) => void>();
  const roots = new RootList([cwd]);
  let person: Person | undefined;
  const runtime = {
    roots,
    askPersonWith: (next: Person | undefined) => {
      person = next;
    },
    onNotice: (listener: (notice: LiveNotice) => void) => {
      noticeListeners.add(listener);
      return () => noticeListeners.delete(listener);
    },
    manager: { subscribe: () => () => undefined, servers: () => [], connection: () => undefined },
    redactor: new SecretRedactor(),
    tools: { list: () => [] },
    knowledge: { access: () => ({ state: "off", reason: "off" }) },
    modelFor: () => ({ model: "fake" }),
    // The controller only runs turns and reads the model name; the fake covers exactly that.
    newSession: () => session as unknown as Session,
    modelProblem: undefined,
    trace: { file: undefined },
    inputHistory: { append: () => undefined, load: () => [] },
    ...runtimeChanges,
  } as unknown as TuiControllerOptions["runtime"];
  const controller = new TuiController({
    dispatch: (action) => actions.push(action),
    runtime,
    cwd,
    onExit: () => undefined,
  });
  const queue = (): QueueView | undefined =>
    actions.findLast(
      (action): action is Extract<TranscriptAction, { type: "ui_queue" }> => action.type === "ui_queue",
    )?.queue;
  // Turns run on promises; a few turns of the event loop let every continuation run.
  const settled = async (): Promise<void> => {
    for (let round = 0; round < 5; round += 1) await new Promise((resolve) => setImmediate(resolve));
  };
  const notice = (live: LiveNotice): void => {
    for (const listener of noticeListeners) listener(live);
  };
  return { controller, turns, actions, queue, settled, notice, roots, person: () => person };
}

const started = (actions: TranscriptAction[]): string[] =>
  actions.flatMap((action) => (action.type === "turn_start" ? [action.input] : []));

describe("TuiController without a model", () => {
  it("gives a message back to the prompt, told what stands in the way now", async () => {
    const noKey = "No API key is set for api.openai.com; set OPENAI_API_KEY.";
    const { controller, actions, settled } = setup(process.cwd(), {
      modelProblem: new ConfigError("No model is set; pass --model <name>."),
      modelFor: () => {
        throw new ConfigError(noKey);
      },
    });
    controller.submit("/model m1");
    await settled();
    const unsent: string[] = [];
    controller.submit("hello", (text) => unsent.push(text));
    await settled();
    expect(unsent).toEqual(["hello"]);
    expect(actions.at(-1)).toEqual({
      type: "ui_notice",
      level: "error",
      text: `${noKey} The message was not sent; it is back in the prompt.`,
    });
    expect(started(actions)).toEqual([]);
  });
});

describe("TuiController's queue", () => {
  it("queues messages sent during a turn and sends them in order as each turn ends", async () => {
    const { controller, turns, actions, queue, settled } = setup();
    controller.submit("first");
    await settled();
    controller.submit("second");
    controller.submit("third");
    expect(queue()?.messages.map((message) => message.text)).toEqual(["second", "third"]);
    expect(actions.some((action) => action.type === "ui_notice")).toBe(false);
    turns[0]?.finish();
    await settled();
    expect(started(actions)).toEqual(["first", "second"]);
    expect(queue()?.messages.map((message) => message.text)).toEqual(["third"]);
    turns[1]?.finish();
    await settled();
    expect(started(actions)).toEqual(["first", "second", "third"]);
    expect(queue()).toEqual({ messages: [], held: false });
  });

  it("runs slash commands at once during a turn", async () => {
    const { controller, actions, queue, settled } = setup();
    controller.submit("first");
    await settled();
    controller.submit("/help");
    await settled();
    expect(actions.some((action) => action.type === "ui_command_result")).toBe(true);
    expect(queue()?.messages ?? []).toEqual([]);
  });

  it("queues a server prompt's command like a message, and hands back one that cannot be sent", async () => {
    const { controller, turns, actions, queue, settled } = setup();
    controller.submit("first");
    await settled();
    const unsent: string[] = [];
    controller.submit("/everything:simple-prompt", (text) => unsent.push(text));
    await settled();
    expect(actions.some((action) => action.type === "ui_command_result")).toBe(false);
    expect(queue()?.messages.map((message) => message.text)).toEqual(["/everything:simple-prompt"]);
    turns[0]?.finish();
    await settled();
    // This runtime has no servers, so the prompt cannot be rendered: said once, and handed back.
    expect(started(actions)).toEqual(["first"]);
    expect(actions.filter((action) => action.type === "ui_notice")).toEqual([
      {
        type: "ui_notice",
        level: "error",
        text: 'There is no server named "everything" (servers: none) for /everything:simple-prompt; nothing was sent.',
      },
    ]);
    expect(unsent).toEqual(["/everything:simple-prompt"]);
    expect(controller.busy).toBe(false);
  });

  it("keeps the queue held when Esc cancels the turn, until the person sends the next", async () => {
    const { controller, turns, actions, queue, settled } = setup();
    controller.submit("first");
    await settled();
    controller.submit("second");
    controller.submit("third");
    expect(controller.cancel()).toBe(true);
    await settled();
    expect(started(actions)).toEqual(["first"]);
    expect(queue()).toMatchObject({ held: true });
    controller.sendQueued();
    await settled();
    expect(started(actions)).toEqual(["first", "second"]);
    expect(queue()).toMatchObject({ held: false });
    turns[1]?.finish();
    await settled();
    expect(started(actions)).toEqual(["first", "second", "third"]);
  });

  it("gives the last queued message back for editing, and it is not sent", async () => {
    const { controller, turns, actions, queue, settled } = setup();
    controller.submit("first");
    await settled();
    controller.submit("second");
    controller.submit("thrid");
    expect(controller.takeLastQueued()).toBe("thrid");
    expect(queue()?.messages.map((message) => message.text)).toEqual(["second"]);
    turns[0]?.finish();
    await settled();
    turns[1]?.finish();
    await settled();
    expect(started(actions)).toEqual(["first", "second"]);
    expect(controller.takeLastQueued()).toBeUndefined();
  });
});

describe("TuiController's live notices and roots", () => {
  it("shows a server's error log and a declined request as they happen, and stops listening on dispose", () => {
    const { controller, actions, notice } = setup();
    notice({ level: "error", text: 'server "everything" logged error: disk full', server: "everything" });
    notice({ level: "warning", text: "Declined a request for input", server: undefined });
    const notices = actions.filter((action) => action.type === "ui_notice");
    expect(notices).toEqual([
      { type: "ui_notice", level: "error", text: 'server "everything" logged error: disk full' },
      { type: "ui_notice", level: "warning", text: "Declined a request for input" },
    ]);
    controller.dispose();
    notice({ level: "error", text: "after the end", server: undefined });
    expect(actions.filter((action) => action.type === "ui_notice")).toHaveLength(2);
  });

  it("/notices off keeps a server's logged errors out, never mcpterm's own warnings; /notices on brings them back", async () => {
    const { controller, actions, notice, settled } = setup();
    const shown = (): string[] =>
      actions.flatMap((action) => (action.type === "ui_notice" ? [action.text] : []));
    controller.submit("/notices off everything");
    await settled();
    notice({ level: "error", text: "everything: disk full", server: "everything" });
    notice({ level: "error", text: "other: broken", server: "other" });
    notice({ level: "warning", text: "Declined a request from everything", server: "everything" });
    expect(shown()).toEqual(["other: broken", "Declined a request from everything"]);
    controller.submit("/notices off");
    await settled();
    notice({ level: "error", text: "other: still broken", server: "other" });
    controller.submit("/notices on other");
    await settled();
    notice({ level: "error", text: "other: back", server: "other" });
    notice({ level: "error", text: "everything: still quiet", server: "everything" });
    controller.submit("/notices on");
    await settled();
    notice({ level: "error", text: "everything: back", server: "everything" });
    expect(shown()).toEqual([
      "other: broken",
      "Declined a request from everything",
      "other: back",
      "everything: back",
    ]);
  });

  it("/roots add takes a folder relative to the working folder", async () => {
    const cwd = await tempDir("mcpterm-roots-");
    await mkdir(path.join(cwd, "docs"));
    const { controller, actions, settled, roots } = setup(cwd);
    controller.submit("/roots add docs");
    await settled();
    expect(roots.paths()).toEqual([cwd, path.join(cwd, "docs")]);
    expect(actions.findLast((action) => action.type === "ui_command_result")).toMatchObject({
      result: { kind: "text", text: expect.stringContaining(`Added ${path.join(cwd, "docs")}`) as string },
    });
  });
});

const SAMPLING: SamplingQuestion = {
  server: "everything",
  messages: [{ role: "user", text: "say hi" }],
  systemPrompt: undefined,
  modelHints: [],
  maxTokens: 100,
  temperature: undefined,
  model: "scripted",
};
const PAGE: ElicitationQuestion = {
  mode: "url",
  server: "everything",
  message: "Please open it",
  url: "https://example.com/a",
  domain: "example.com",
};

/** The ids of what was asked, as the transcript was told, in the order each was first asked. */
const asked = (actions: TranscriptAction[]): Array<number | string> => {
  const ids: Array<number | string> = [];
  for (const list of askingReports(actions)) for (const id of list) if (!ids.includes(id)) ids.push(id);
  return ids;
};
/** The ids of what stopped being asked (answered or withdrawn), in the order it went. */
const done = (actions: TranscriptAction[]): Array<number | string> => {
  const ids: Array<number | string> = [];
  let before: Array<number | string> = [];
  for (const list of askingReports(actions)) {
    ids.push(...before.filter((id) => !list.includes(id)));
    before = list;
  }
  return ids;
};
const askingReports = (actions: TranscriptAction[]): Array<Array<number | string>> =>
  actions.flatMap((action) =>
    action.type === "ui_asking"
      ? [action.asking.map((each) => (each.kind === "call" || each.kind === "fetch" ? each.callId : each.id))]
      : [],
  );

describe("TuiController answering servers' questions", () => {
  it("is the person the session asks, shows each question and ends it with the person's answer", async () => {
    const { controller, actions, person } = setup();
    expect(person()).toBe(controller);
    const sampled = controller.sampling(SAMPLING, new AbortController().signal);
    const opened = controller.elicitation(PAGE, new AbortController().signal);
    expect(actions.filter((action) => action.type === "ui_asking").at(-1)).toEqual({
      type: "ui_asking",
      asking: [
        { kind: "sampling", id: 1, question: SAMPLING },
        { kind: "elicitation", id: 2, question: PAGE },
      ],
    });
    // An answer of the wrong kind changes nothing.
    controller.answerQuestion(2, { kind: "sampling", answer: { approved: true } });
    expect(done(actions)).toEqual([]);
    controller.answerQuestion(2, { kind: "elicitation", answer: { action: "accept", content: {} } });
    controller.answerQuestion(1, { kind: "sampling", answer: { approved: true, editedText: "say hello" } });
    expect(await opened).toEqual({ action: "accept", content: {} });
    expect(await sampled).toEqual({ approved: true, editedText: "say hello" });
    expect(done(actions)).toEqual([2, 1]);
    const told = actions.flatMap((action) => (action.type === "ui_notice" ? [action.text] : []));
    expect(told).toEqual([
      'Opening https://example.com/a (example.com) in your browser, as server "everything" asked.',
      'Sent server "everything"\'s sampling request to scripted, as you edited it.',
    ]);
  });

  it("takes a question down when its server gives up on it, answering no", async () => {
    const { controller, actions } = setup();
    const stop = new AbortController();
    const sampled = controller.sampling(SAMPLING, stop.signal);
    const form = new AbortController();
    const filled = controller.elicitation(
      { mode: "form", server: "s", message: "m", fields: [] },
      form.signal,
    );
    stop.abort();
    form.abort();
    expect(await sampled).toEqual({ approved: false, reason: "the request ended before the user answered" });
    expect(await filled).toEqual({ action: "cancel" });
    expect(done(actions)).toEqual([1, 2]);
    // An answer that comes after changes nothing.
    controller.answerQuestion(1, { kind: "sampling", answer: { approved: true } });
    expect(done(actions)).toEqual([1, 2]);
    // A request that ended before it was asked is never shown.
    expect(await controller.sampling(SAMPLING, AbortSignal.abort())).toMatchObject({ approved: false });
    expect(asked(actions)).toEqual([1, 2]);
  });

  it("on dispose stops answering for the session and says no to what is still open", async () => {
    const { controller, person } = setup();
    const sampled = controller.sampling(SAMPLING, new AbortController().signal);
    const opened = controller.elicitation(PAGE, new AbortController().signal);
    controller.dispose();
    expect(person()).toBeUndefined();
    expect(await sampled).toMatchObject({ approved: false });
    expect(await opened).toEqual({ action: "cancel" });
  });
});

describe("TuiController asking about a call whose events withhold its arguments", () => {
  it("shows the person the arguments redacted by the full rules, not only the fast ones", async () => {
    const { controller, actions, settled } = setup();
    const stop = new AbortController();
    const answer = controller.approveCall(
      {
        callId: "c1",
        server: "mail",
        tool: "send",
        tier: "external",
        tierReason: "openWorldHint",
        reason: "the arguments hold a secret: password (secret-named-argument)",
        arguments: { to: "ann@example.com", password: "correct horse battery" },
        argumentsWithheld: true,
        notes: [],
      },
      stop.signal,
    );
    await settled();
    const asked = actions.findLast(
      (action): action is Extract<TranscriptAction, { type: "ui_asking" }> => action.type === "ui_asking",
    )?.asking[0];
    expect(asked).toEqual({
      kind: "call",
      callId: "c1",
      arguments: { to: "ann@example.com", password: "[REDACTED]" },
    });
    stop.abort();
    expect(await answer).toMatchObject({ approved: false });
  });
});
