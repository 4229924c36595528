import { askContextWindow } from "./context-probe.js";
import type { ContextWindowCache } from "./context-window-cache.js";
import { DEFAULT_BASE_URL } from "./endpoint-label.js";
import type { OpenAiChatModelOptions } from "./openai-chat-model.js";
import type { ChatModel, ContextWindow, ModelSettings } from "./types.js";

/**
 * The chat model for `settings`, its code (the request, the stream, the retries) loaded on the
 * first request instead of at start-up, where it would delay the TUI's first frame.
 */
export function lazyChatModel(
  settings: ModelSettings,
  options?: OpenAiChatModelOptions,
  windows?: ContextWindowCache,
): ChatModel {
  let real: Promise<ChatModel> | undefined;
  let window: Promise<ContextWindow> | undefined;
  const load = (): Promise<ChatModel> => {
    real ??= import("./openai-chat-model.js").then(({ createOpenAiChatModel }) =>
      createOpenAiChatModel(settings, options),
    );
    return real;
  };
  return {
    model: settings.model,
    ...(settings.maxTokens === undefined ? {} : { maxTokens: settings.maxTokens }),
    contextWindow: () => {
      window ??= settings.contextWindow
        ? Promise.resolve({ tokens: settings.contextWindow, source: "config", detail: "model.contextWindow" })
        : rememberedOrAsked(settings, windows);
      return window;
    },
    rememberContextWindow: (tokens) => {
      // A window the config sets is the person's word, never replaced by what a server said.
      if (settings.contextWindow) return;
      windows?.set(settings.baseUrl ?? DEFAULT_BASE_URL, settings.model, {
        tokens,
        source: "server",
        detail: "the server's context-length error",
      });
    },
    async *stream(request) {
      yield* (await load()).stream(request);
    },
  };
}

/** The window an endpoint reported within the last day (`windows`), else asked for and kept. */
async function rememberedOrAsked(
  settings: ModelSettings,
  windows: ContextWindowCache | undefined,
): Promise<ContextWindow> {
  const baseUrl = settings.baseUrl ?? DEFAULT_BASE_URL;
  const remembered = windows?.get(baseUrl, settings.model);
  if (remembered) return remembered;
  const { window, answered } = await askContextWindow({
    baseUrl,
    model: settings.model,
    apiKey: settings.apiKey,
  });
  if (answered) windows?.set(baseUrl, settings.model, window);
  return window;
}
