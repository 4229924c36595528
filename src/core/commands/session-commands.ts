import type { SlashCommand } from "./command-types.js";

export const clearCommand: SlashCommand = {
  name: "clear",
  usage: "",
  description: "start a new conversation (servers, allowances and knowledge base stay)",
  run: (context) => {
    context.clearConversation();
    return Promise.resolve({ kind: "text", text: "Conversation cleared.", after: "clear" });
  },
};

export const exitCommand: SlashCommand = {
  name: "exit",
  usage: "",
  description: "stop the servers and quit",
  run: () => Promise.resolve({ kind: "text", text: "Bye.", after: "exit" }),
};

export const traceCommand: SlashCommand = {
  name: "trace",
  usage: "[turn]",
  description: "the last turn (or turn n) as a tree",
  run: () =>
    Promise.resolve({
      kind: "error",
      message:
        "/trace is not available in this version yet; run a one-shot question with --trace <file.jsonl> to record one.",
    }),
};
