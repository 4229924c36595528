import type { CommandContext } from "../../src/core/commands/command-types.js";
import { SLASH_COMMANDS } from "../../src/core/commands/slash-commands.js";
import type { SessionRequest, SessionRuntime } from "../../src/core/session/open-session.js";

/** What the TUI would ask the factory for (interactive, nothing approved in advance), changed by `overrides`. */
export function interactiveRequest(overrides: Partial<SessionRequest> = {}): SessionRequest {
  return {
    configPath: undefined,
    kbDir: undefined,
    kb: false,
    model: { model: "m", baseUrl: "http://127.0.0.1:9/v1" },
    maxSteps: 5,
    traceFile: undefined,
    trustConfig: false,
    approve: [],
    interactive: true,
    allowSecretArguments: false,
    allowSampling: false,
    roots: [],
    ...overrides,
  };
}

/** The slash commands' view of a runtime, as the TUI controller builds it. */
export function commandContext(runtime: SessionRuntime): CommandContext {
  return {
    manager: runtime.manager,
    redactor: runtime.redactor,
    tools: () => runtime.tools.list(),
    knowledge: () => runtime.knowledge.access(),
    commands: SLASH_COMMANDS,
    clearConversation: () => true,
    traceFile: () => runtime.trace.file,
    narrowing: runtime.narrowing,
    toolSearch: runtime.toolSearch,
    model: { current: () => "m", problem: () => undefined, switchTo: () => undefined },
  };
}
