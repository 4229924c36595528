import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSession, type SessionRuntime } from "../../src/core/session/open-session.js";
import {
  imageProtocol,
  inlineImageSequence,
  MAX_INLINE_IMAGE_BYTES,
} from "../../src/ui/terminal/inline-image.js";
import type { TranscriptAction } from "../../src/ui/transcript/transcript-reducer.js";
import { TuiController } from "../../src/ui/app/tui-controller.js";
import { EVERYTHING_SERVER, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { interactiveRequest } from "../support/session.js";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

describe("which terminals draw images", () => {
  it.each([
    [{ TERM: "xterm-kitty" }, "kitty"],
    [{ KITTY_WINDOW_ID: "1", TERM: "xterm-256color" }, "kitty"],
    [{ TERM_PROGRAM: "iTerm.app" }, "iterm2"],
    [{ TERM_PROGRAM: "WezTerm" }, "iterm2"],
    [{ TERM_PROGRAM: "iTerm.app", TMUX: "/tmp/tmux-0/default,1,0" }, "none"],
    [{ TERM: "xterm-kitty", MCPTERM_NO_IMAGES: "1" }, "none"],
    [{ TERM: "xterm-256color" }, "none"],
  ])("%j: %s", (env, protocol) => {
    expect(imageProtocol(env)).toBe(protocol);
  });
});

describe("an inline image's escape sequence", () => {
  it("is iTerm2's File sequence, with the size, for any image", () => {
    expect(inlineImageSequence("iterm2", "image/jpeg", PNG)).toBe(
      `\u001b]1337;File=inline=1;size=${Math.floor((PNG.length * 3) / 4)};preserveAspectRatio=1:${PNG}\u0007\n`,
    );
  });

  it("is kitty's graphics sequence in chunks of 4096, for PNG only", () => {
    const big = "A".repeat(9000);
    const sequence = inlineImageSequence("kitty", "image/png", big) ?? "";
    expect(sequence.split("\u001b_G")).toHaveLength(4);
    expect(sequence.startsWith("\u001b_Ga=T,f=100,m=1;")).toBe(true);
    expect(sequence).toContain("\u001b_Gm=0;");
    expect(inlineImageSequence("kitty", "image/jpeg", PNG)).toBeUndefined();
  });

  it("is refused for data that could end the sequence, that is too large, or that is no image", () => {
    expect(inlineImageSequence("iterm2", "image/png", `${PNG}\u0007\u001b]0;owned\u0007`)).toBeUndefined();
    expect(inlineImageSequence("kitty", "image/png", `AAAA\u001b\\\u001b[2J`)).toBeUndefined();
    expect(
      inlineImageSequence("iterm2", "image/png", "A".repeat((MAX_INLINE_IMAGE_BYTES / 3) * 4 + 8)),
    ).toBeUndefined();
    expect(inlineImageSequence("iterm2", "audio/wav", PNG)).toBeUndefined();
    expect(inlineImageSequence("none", "image/png", PNG)).toBeUndefined();
  });
});

describe("images in the TUI", () => {
  let runtime: SessionRuntime | undefined;
  let model: ScriptedModelServer | undefined;
  afterEach(async () => {
    await runtime?.close();
    await model?.close();
  });

  it("draws server-everything's tiny image where the terminal can, and nothing where it cannot", async () => {
    const dir = await tempDir();
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] } },
    });
    model = await startScriptedModelServer((request) => {
      const body = request.body as { messages: Array<{ role: string }> };
      if (body.messages.some((message) => message.role === "tool")) return { text: "There it is." };
      return { toolCalls: [{ id: "c1", name: "everything__get-tiny-image", arguments: "{}" }] };
    });
    runtime = await openSession(
      interactiveRequest({ trustConfig: true, model: { model: "m", baseUrl: model.baseUrl } }),
      { env: cleanEnv(), cwd: dir },
    );
    await runtime.start().servers;
    const actions: TranscriptAction[] = [];
    const drawn: string[] = [];
    const plain: string[] = [];
    const controller = new TuiController({
      dispatch: (action) => actions.push(action),
      runtime,
      cwd: dir,
      images: "iterm2",
      onExit: () => undefined,
    });
    const stop = controller.onImageSequences((sequence) => drawn.push(sequence));
    const none = new TuiController({ dispatch: () => undefined, runtime, cwd: dir, onExit: () => undefined });
    const stopNone = none.onImageSequences((sequence) => plain.push(sequence));
    controller.submit("show me the image");
    for (let tries = 0; tries < 500 && !actions.some((action) => action.type === "turn_end"); tries++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    stop();
    stopNone();
    controller.dispose();
    none.dispose();
    expect(drawn).toHaveLength(1);
    const [sequence = ""] = drawn;
    expect(sequence.startsWith("\u001b]1337;File=inline=1;size=")).toBe(true);
    expect(sequence.endsWith("\u0007\n")).toBe(true);
    expect(sequence.slice(sequence.indexOf(":") + 1, -2)).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(plain).toEqual([]);
  });
});
