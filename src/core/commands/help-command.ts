import { promptLines, shortDescription } from "../context/catalog-view.js";
import type { SlashCommand } from "./command-types.js";

export const helpCommand: SlashCommand = {
  name: "help",
  usage: "",
  description: "list the commands and the keys",
  run: (context) => {
    const redact = context.redactor.redactText;
    // Each server prompt is a command too, listed after mcpterm's own.
    const prompts = context.manager
      .servers()
      .flatMap((server) =>
        promptLines(server, redact).map((line) => [
          `${line.command}${line.usage ? ` ${line.usage}` : ""}`,
          shortDescription([line.title, line.description].filter((part) => part !== "").join(" — ")),
        ]),
      );
    return Promise.resolve({
      kind: "table",
      title: "Commands",
      columns: ["command", "what it does"],
      wholeCells: true,
      rows: [
        ...context.commands.map((command) => [
          `/${command.name}${command.usage ? ` ${command.usage}` : ""}`,
          command.description,
        ]),
        ...prompts,
      ],
      note:
        "Keys: Enter send · \\ then Enter or Alt+Enter new line · Up/Down history · Tab complete · " +
        "Esc cancel a turn · Ctrl+O open the latest tool panel · Ctrl+G or Ctrl+X Ctrl+E edit in $EDITOR · " +
        "Ctrl+C twice or Ctrl+D exit · @path attaches a file, @server:uri a resource",
    });
  },
};
