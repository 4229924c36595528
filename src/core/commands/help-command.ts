import type { SlashCommand } from "./command-types.js";

export const helpCommand: SlashCommand = {
  name: "help",
  usage: "",
  description: "list the commands and the keys",
  run: (context) =>
    Promise.resolve({
      kind: "table",
      title: "Commands",
      columns: ["command", "what it does"],
      rows: context.commands.map((command) => [
        `/${command.name}${command.usage ? ` ${command.usage}` : ""}`,
        command.description,
      ]),
      note:
        "Keys: Enter send · \\ then Enter or Alt+Enter new line · Up/Down history · Tab complete · " +
        "Esc cancel a turn · Ctrl+O open the latest tool panel · Ctrl+C twice or Ctrl+D exit",
    }),
};
