import { errorMessage } from "../errors.js";
import type { SlashCommand } from "./command-types.js";

export const modelCommand: SlashCommand = {
  name: "model",
  usage: "[name]",
  description: "show the model, or switch to another one at the same endpoint",
  run: (context, args) => {
    const [name] = args;
    if (name === undefined) {
      const current = context.model.current();
      if (current) return Promise.resolve({ kind: "text", text: `Model: ${current}` });
      return Promise.resolve({
        kind: "error",
        message: context.model.problem() ?? "No model is set; use /model <name>.",
      });
    }
    try {
      context.model.switchTo(name);
    } catch (error) {
      return Promise.resolve({ kind: "error", message: errorMessage(error) });
    }
    return Promise.resolve({ kind: "text", text: `Model: ${name} (from the next message on)` });
  },
};
