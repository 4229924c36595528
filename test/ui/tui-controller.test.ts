import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/core/agent/events.js";
import type { Session, UserMessage } from "../../src/core/agent/session.js";
import type { TranscriptAction } from "../../src/ui/transcript-reducer.js";
import type { QueueView } from "../../src/ui/transcript-types.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { TuiController, type TuiControllerOptions } from "../../src/ui/tui-controller.js";

/** A turn the test ends by hand: it reports its start, then waits to be finished or cancelled. */
interface HeldTurn {
  input: string;
  finish: () => void;
}

function setup(): {
  controller: TuiController;
  turns: HeldTurn[];
  actions: TranscriptAction[];
  queue: () => QueueView | undefined;
  settled: () => Promise<void>;
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
  const runtime = {
    manager: { subscribe: () => () => undefined, servers: () => [], connection: () => undefined },
    redactor: new SecretRedactor(),
    tools: { list: () => [] },
    knowledge: { access: () => ({ state: "off", reason: "off" }) },
    modelFor: () => ({ model: "fake" }),
    // The controller only runs turns and reads the model name; the fake covers exactly that.
    newSession: () => session as unknown as Session,
    modelProblem: undefined,
    trace: { file: undefined },
  } as unknown as TuiControllerOptions["runtime"];
  const controller = new TuiController({
    dispatch: (action) => actions.push(action),
    runtime,
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
  return { controller, turns, actions, queue, settled };
}

const started = (actions: TranscriptAction[]): string[] =>
  actions.flatMap((action) => (action.type === "turn_start" ? [action.input] : []));

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
