import { constants } from "node:fs";
import { copyFile } from "node:fs/promises";
import { newFileRefusal } from "../files/new-file.js";
import { readTrace } from "../trace/trace-reader.js";
import { renderTraceTree } from "../trace/trace-tree.js";
import { renderWire } from "../trace/trace-wire.js";
import type { SlashCommand } from "./command-types.js";

export const clearCommand: SlashCommand = {
  name: "clear",
  usage: "",
  description: "start a new conversation (servers, allowances and knowledge base stay)",
  run: (context) => {
    if (!context.clearConversation()) {
      return Promise.resolve({
        kind: "error",
        message: "A turn is still running; press Esc to cancel it first.",
      });
    }
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
  usage: "[turn] | wire [server] [--full] | export <file>",
  description: "the last turn (or turn n) as a tree, the raw JSON-RPC frames, or a copy of the trace",
  complete: (args, source) => {
    if (args.length === 0) return ["wire", "export"];
    if (args[0] === "wire" && args.length <= 2)
      return [...(args.length === 1 ? source.servers : []), "--full"];
    return [];
  },
  run: async (context, args) => {
    const file = context.traceFile();
    if (!file) return { kind: "error", message: "This session is not recording a trace." };
    const [first, second] = args;
    if (first === "export") {
      if (!second || args.length > 2)
        return {
          kind: "error",
          message: `Usage: /trace export <file>${args.length > 2 ? ' (a name with spaces goes in quotes: "my trace.jsonl")' : ""}`,
        };
      const refused = await exportTrace(file, second);
      if (refused) return { kind: "error", message: refused };
      return { kind: "text", text: `Trace copied to ${second} (from ${file}).` };
    }
    const trace = await readTrace(file);
    if (first === "wire") {
      const rest = args.slice(1);
      const server = rest.find((arg) => arg !== "--full");
      return {
        kind: "text",
        text: renderWire(trace, {
          ...(server === undefined ? {} : { server }),
          full: rest.includes("--full"),
        }),
      };
    }
    if (trace.turns.length === 0) return { kind: "text", text: `No turns recorded yet (${file}).` };
    const turn = first === undefined ? trace.turns.length : Number(first);
    if (!Number.isInteger(turn) || turn < 1 || turn > trace.turns.length) {
      return {
        kind: "error",
        message: `There is no turn ${first ?? ""}; this trace has turns 1-${trace.turns.length}.`,
      };
    }
    return { kind: "text", text: renderTraceTree(trace, { turn }) };
  },
};

/**
 * Copies the trace to a new file: never over one that is there (a typo must not replace a
 * person's notes with a trace), and says why it could not in a sentence, or undefined.
 */
async function exportTrace(trace: string, target: string): Promise<string | undefined> {
  try {
    await copyFile(trace, target, constants.COPYFILE_EXCL);
    return undefined;
  } catch (error) {
    return newFileRefusal(target, error, "/trace export");
  }
}
