import type { OpenAiChatModelOptions } from "./openai-chat-model.js";
import type { ChatModel, ModelSettings } from "./types.js";

/**
 * The chat model for `settings`, with the `openai` package (and Node's fetch behind it) loaded
 * on the first request instead of at start-up, where it would delay the TUI's first frame.
 */
export function lazyChatModel(settings: ModelSettings, options?: OpenAiChatModelOptions): ChatModel {
  let real: Promise<ChatModel> | undefined;
  const load = (): Promise<ChatModel> => {
    real ??= import("./openai-chat-model.js").then(({ createOpenAiChatModel }) =>
      createOpenAiChatModel(settings, options),
    );
    return real;
  };
  return {
    model: settings.model,
    async *stream(request) {
      yield* (await load()).stream(request);
    },
  };
}
