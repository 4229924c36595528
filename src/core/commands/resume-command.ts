import { localMinute, oneLine } from "../text/index.js";
import type { SlashCommand } from "./command-types.js";

/** `/resume` lists the folder's saved sessions; `/resume <n>` or `/resume <id>` goes on with one. */
export const resumeCommand: SlashCommand = {
  name: "resume",
  usage: "[n | id]",
  description: "go on with a saved session of this folder (without an argument: list them)",
  run: async (context, args) => {
    const sessions = context.sessions;
    if (!sessions) return { kind: "error", message: "Saved sessions cannot be resumed here." };
    const list = await sessions.list();
    const [choice] = args;
    if (choice === undefined) {
      if (list.length === 0) return { kind: "text", text: "No saved sessions in this folder yet." };
      return {
        kind: "table",
        title: "Saved sessions, newest first",
        // The id before the message: only the last column wraps, and an id is copied whole.
        columns: ["#", "saved", "turns", "id", "first message"],
        rows: list.map((entry, index) => [
          String(index + 1),
          localMinute(entry.modified),
          entry.readable ? String(entry.turns) : "-",
          entry.id,
          oneLine(entry.first, 60),
        ]),
        note: "/resume <#> or /resume <id> goes on with one.",
      };
    }
    const picked = /^\d+$/.test(choice) ? list[Number(choice) - 1]?.id : choice;
    if (picked === undefined)
      return { kind: "error", message: `There is no session #${choice}; /resume lists ${list.length}.` };
    const resumed = await sessions.resume(picked);
    return resumed.ok
      ? { kind: "text", text: resumed.text, after: "clear" }
      : { kind: "error", message: resumed.reason };
  },
};
