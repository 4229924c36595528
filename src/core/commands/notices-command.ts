import type { CommandResult, NoticeControl, SlashCommand } from "./command-types.js";

const USAGE = "Usage: /notices, /notices off [server], /notices on [server]";

/**
 * `/notices`: servers that log errors as they go can fill the transcript; `/notices off` (or for
 * one server) keeps their log lines out of it — they are still in `/mcp logs` and the trace —
 * and `/notices on` brings them back. mcpterm's own warnings are never quieted.
 */
export const noticesCommand: SlashCommand = {
  name: "notices",
  usage: "[on|off [server]]",
  description: "quiet (or bring back) servers' logged errors in the transcript",
  complete: (args, source) => (args.length === 0 ? ["on", "off"] : args.length === 1 ? source.servers : []),
  run: (context, args) => Promise.resolve(noticesResult(context.notices, args)),
};

function noticesResult(notices: NoticeControl | undefined, args: readonly string[]): CommandResult {
  if (!notices) return { kind: "error", message: "Servers' notices cannot be quieted here." };
  const [setting, server, ...extra] = args;
  if (setting === undefined) return { kind: "text", text: describe(notices.quieted()) };
  if ((setting !== "on" && setting !== "off") || extra.length > 0) return { kind: "error", message: USAGE };
  notices.set(server, setting === "on");
  const who = server === undefined ? "every server" : `server "${server}"`;
  return {
    kind: "text",
    text:
      setting === "off"
        ? `Quiet: ${who}'s logged errors stay out of the transcript (see /mcp logs). /notices on brings them back.`
        : `${who[0]?.toUpperCase() ?? ""}${who.slice(1)}'s logged errors are shown again.`,
  };
}

function describe({ all, except }: { all: boolean; except: readonly string[] }): string {
  const names = except.map((name) => `"${name}"`).join(", ");
  if (all)
    return except.length === 0
      ? "Every server's logged errors are kept out of the transcript (/notices on shows them)."
      : `Every server's logged errors are kept out of the transcript, but ${names}'s.`;
  if (except.length === 0)
    return "Servers' logged errors are shown in the transcript. /notices off [server] quiets them.";
  return `Quiet: ${names}. /notices on [server] shows them again.`;
}
